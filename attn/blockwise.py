"""Attention without the n x n matrix: the online softmax over key blocks.

``plain_attention`` is the textbook formulation that builds the whole (n_q, n_k) weight matrix;
``blockwise_attention`` gives the same numbers (to about 1e-15 in float64) while holding only one
(block_size, key_block_size) score block at a time (Rabe & Staats 2021, "Self-attention does not
need O(n^2) memory"; Dao et al. 2022, FlashAttention).

For each block of query rows it keeps, per row, a running maximum m, a running sum of
exponentials l and a running weighted sum of values o. When a new key block raises the maximum
from m to m_new, everything accumulated so far is rescaled by exp(m - m_new):

    s     = Q_i K_j^T / sqrt(d_k)
    m_new = max(m, rowmax(s))
    p     = exp(s - m_new)
    l     = exp(m - m_new) * l + rowsum(p)
    o     = exp(m - m_new) * o + p V_j
    out_i = o / l                      (after the last key block)

Only m >= rowmax(s) matters, not m = rowmax(s): without a mask, m is an upper bound that costs no
pass over s. The loop itself is ``attn.kernels.online_softmax_attention`` (see that module).

``plain_attention`` takes its weights from ``attn.core.dot_product_weights``, where they are
spelled once. The online form does not: it never holds a row's weights whole, only partial sums
rescaled as each key block arrives, which is what saves the memory.

Taught on: docs/08-cost.md
"""

import numpy as np  # noqa: F401 (the docstring examples run with this module's globals)

from ._validate import attention_inputs, check_int, check_no_overflow
from .core import dot_product_weights
from .kernels import online_softmax_attention

#: Default query rows and key columns per score block of :func:`blockwise_attention`:
#: a (256, 2048) float64 block is 4 MiB, whatever n is.
BLOCK_SIZE = 256
KEY_BLOCK_SIZE = 2048


def plain_attention(q, k, v, mask=None):
    """The textbook formula, materialising every n_q x n_k intermediate.

    softmax(q @ k.swapaxes(-1, -2) / sqrt(d_k)) @ v, with masked scores set to -inf (the weights of
    :func:`attn.core.dot_product_weights`, then one product with v). This is the
    reference the benchmark compares against: simple, and slow for large n because it allocates
    several full score matrices. Scores too large for the dtype raise ValueError.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    mask: bool broadcastable to (..., n_q, n_k), True = may attend
    -> (..., n_q, d_v)

    >>> q, k, v = np.ones((3, 4)), np.ones((5, 4)), np.arange(10.0).reshape(5, 2)  # (n_q, d_k), (n_k, d_k), (n_k, d_v)
    >>> plain_attention(q, k, v)  # equal scores: the mean of the values, (n_q, d_v)
    array([[4., 5.],
           [4., 5.],
           [4., 5.]])

    Taught on: docs/08-cost.md
    """
    q, k, v, mask = attention_inputs(q, k, v, mask)
    weights = dot_product_weights(q, k, mask)  # (..., n_q, n_k)
    check_no_overflow(weights, q, k, mask)
    return weights @ v


def blockwise_attention(q, k, v, mask=None, block_size=BLOCK_SIZE, key_block_size=KEY_BLOCK_SIZE):
    """softmax(Q K^T / sqrt(d_k)) V by the online softmax, block by block.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    mask: bool broadcastable to (..., n_q, n_k), True = may attend
    -> (..., n_q, d_v), equal to :func:`attn.core.scaled_dot_product_attention`
    up to rounding (<= 1e-12 in float64).

    ``block_size`` query rows meet ``key_block_size`` keys at a time, so the extra memory is one
    (..., block_size, key_block_size) score block, a copy of the keys with a column of ones and
    O(block_size * (d_k + d_v)) row state: O(n * block) in all, never O(n_q * n_k). Masked keys get
    weight exactly 0; a fully masked query row gets a zero output. Works in float32 and float16 as
    well as float64. A nan or inf in one row of q, k or v reaches only the rows that depend on it.

    Without a mask, the running maximum m is replaced by a running upper bound of it, |q_i| times
    the longest key seen so far: any m at or above the true maximum keeps every exponent <= 0, the
    rescaling by exp(m - m_new) is unchanged, and no pass over the scores is spent looking for
    their maximum. With a mask (or in a row whose bound proves too loose), the exact running
    maximum is taken.

    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.standard_normal((2, 6, 4)), rng.standard_normal((2, 7, 4)), rng.standard_normal((2, 7, 3))
    >>> out = blockwise_attention(q, k, v, block_size=4, key_block_size=3)  # (batch, n_q, d_v)
    >>> out.shape, bool(np.allclose(out, plain_attention(q, k, v), rtol=0, atol=1e-14))
    ((2, 6, 3), True)

    Taught on: docs/08-cost.md
    """
    q, k, v, mask = attention_inputs(q, k, v, mask)
    block_size = check_int(block_size, "block_size", minimum=1)
    key_block_size = check_int(key_block_size, "key_block_size", minimum=1)
    # attn/kernels.py: the same numbers as plain_attention, one score block at a time.
    return online_softmax_attention(q, k, v, mask, block_size, key_block_size)
