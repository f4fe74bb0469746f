"""Scaled dot-product attention, and the softmax and the masks it is built on.

    Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V      (Vaswani et al. 2017, eq. 1)

Shapes use the paper's names: n_q query positions, n_k key positions, d_k the width of queries
and keys, d_v the width of values. Leading ``...`` axes (batch, heads) broadcast.

Masks are boolean and True means "may attend". A masked score is set to -inf before the softmax,
so its weight is exactly 0. A query row whose keys are *all* masked gets all-zero weights and an
all-zero output, silently (no warning, no nan): that is the documented choice for fully padded rows.

This module is the equation as it is taught. The default call of scaled_dot_product_attention
hands the same computation to a kernel in attn/kernels.py (docs/implementation-notes.md explains
it), which gives the same numbers without building the n_q x n_k matrix.

Taught on: docs/03-queries-keys-values.md
"""

import math

import numpy as np

from ._validate import attention_inputs, check_axis, check_int, check_no_overflow, float_arrays, real_array
from .kernels import query_block_attention


def softmax(x, axis=-1):
    """Numerically stable softmax along ``axis``.

    Subtracts the maximum of each slice before exponentiating, so scores of 1e4 neither overflow
    nor produce nan. Entries of -inf mean "masked" and get weight exactly 0. A slice that is
    entirely -inf gets all-zero weights (not nan, and no warning). Inputs containing nan or +inf
    are not supported.

    x: (..., n) -> (..., n), same shape as ``x``; each slice along ``axis`` sums to 1 (or is all 0
    when fully masked). Integer input gives float64.

    >>> softmax(np.array([[0.0, np.log(3.0)], [5.0, -np.inf]]))  # (2, 2) -> (2, 2)
    array([[0.25, 0.75],
           [1.  , 0.  ]])

    Taught on: docs/02-one-head-by-hand.md
    """
    (x,) = float_arrays(x=x)
    axis = check_axis(axis, x.ndim)
    x_max = np.max(x, axis=axis, keepdims=True)
    np.copyto(x_max, 0.0, where=np.isneginf(x_max))  # fully masked slice: shift by 0
    e = np.exp(x - x_max)  # the only full-size allocation; x is never written
    total = np.sum(e, axis=axis, keepdims=True)
    np.copyto(total, 1.0, where=total == 0)  # fully masked slice: 0 / 1 = 0
    e /= total
    return e


def scaled_dot_product_attention(q, k, v, mask=None, return_weights=False):
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    mask: bool, broadcastable to (..., n_q, n_k), True = may attend
    -> out (..., n_q, d_v), or (out, weights (..., n_q, n_k)) when ``return_weights`` is True.

    Masked weights are exactly 0; a fully masked query row gets zero weights and a zero output.
    The result has the floating dtype of the inputs (float32 stays float32; integers become
    float64). Scores too large for that dtype raise ValueError.

    Without ``return_weights`` the n_q x n_k weight matrix is never built: the kernel
    ``attn.kernels.query_block_attention`` takes the query rows a block at a time, and a nan or inf
    in one row of q, k or v reaches only the rows that depend on it. With ``return_weights`` the
    equation runs as written, so a nan or inf in the value of a masked key reaches every row
    through 0 * nan = nan.

    >>> rng = np.random.default_rng(0)
    >>> q = rng.standard_normal((2, 3, 4))  # (batch, n_q, d_k)
    >>> k = rng.standard_normal((2, 5, 4))  # (batch, n_k, d_k)
    >>> v = rng.standard_normal((2, 5, 6))  # (batch, n_k, d_v)
    >>> out, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    >>> out.shape, weights.shape  # (batch, n_q, d_v), (batch, n_q, n_k)
    ((2, 3, 6), (2, 3, 5))
    >>> bool(np.allclose(scaled_dot_product_attention(q, k, v), out, rtol=0, atol=1e-15))
    True

    Taught on: docs/03-queries-keys-values.md
    """
    q, k, v, mask = attention_inputs(q, k, v, mask)
    if not return_weights:
        # attn/kernels.py: the same numbers (to 1e-12), a block of query rows at a time: never n_q x n_k.
        return query_block_attention(q, k, v, mask)
    weights = dot_product_weights(q, k, mask)  # (..., n_q, n_k)
    check_no_overflow(weights, q, k, mask)
    return weights @ v, weights


def dot_product_weights(q, k, mask=None, bias=None):
    """The attention weights softmax(Q K^T / sqrt(d_k) + bias), masked scores set to -inf.

    q: (..., n_q, d_k), k: (..., n_k, d_k), mask: bool broadcastable to (..., n_q, n_k), True = may
    attend, bias: None or floats broadcastable to (..., n_q, n_k), added to the scaled scores (ALiBi's
    distance penalty, the relative term of Shaw et al.) -> weights (..., n_q, n_k); each row sums
    to 1, or is all 0 when every key of it is masked.

    The one place the weights are spelled: scaled_dot_product_attention (with ``return_weights``),
    plain_attention, the backward pass, ALiBi and relative attention all call it. The fast paths
    of attn/kernels.py compute the same numbers without building the n_q x n_k matrix.

    >>> q, k = np.array([[1.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 1.0]])  # (n_q, d_k), (n_k, d_k)
    >>> dot_product_weights(q, k, bias=np.array([[0.0, 1 / np.sqrt(2)]])).round(3)  # the bias evens the scores
    array([[0.5, 0.5]])

    Taught on: docs/03-queries-keys-values.md
    """
    scale = 1.0 / math.sqrt(q.shape[-1])  # applied to Q: n_q * d_k multiplies, not n_q * n_k
    scores = (q * scale) @ k.swapaxes(-1, -2)  # (..., n_q, n_k)
    if bias is not None:
        scores = scores + bias
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)  # a masked score gets weight exactly 0
    return softmax(scores)


def causal_mask(n):
    """Mask letting position i attend to positions 0..i only.

    -> bool (n, n), lower triangle (diagonal included) True.

    >>> causal_mask(3).astype(int)  # (n, n)
    array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 1]])

    Taught on: docs/07-full-block.md
    """
    n = check_int(n, "n", minimum=0)
    return np.tri(n, n, dtype=bool)


def padding_mask(lengths, n):
    """Mask hiding the padding at the end of each sequence of a batch.

    lengths: (batch,) ints in [0, n], the number of real tokens of each sequence -> bool
    (batch, 1, n), True for real tokens. The middle axis of size 1 broadcasts over the query
    positions n_q.

    >>> padding_mask([3, 1], 4).astype(int)  # (batch, 1, n)
    array([[[1, 1, 1, 0]],
    <BLANKLINE>
           [[1, 0, 0, 0]]])

    Taught on: docs/07-full-block.md
    """
    n = check_int(n, "n", minimum=0)
    lengths = real_array(lengths, "lengths")
    if lengths.dtype.kind == "f":
        raise TypeError(f"lengths must hold integers, got dtype {lengths.dtype}")
    if lengths.ndim != 1:
        raise ValueError(f"lengths must be 1-D, (batch,), got shape {lengths.shape}")
    if np.any(lengths < 0) or np.any(lengths > n):
        raise ValueError(f"lengths must lie in [0, n] = [0, {n}], got {lengths.tolist()}")
    real = np.arange(n) < lengths[:, None]  # (batch, n)
    return real[:, None, :]  # (batch, 1, n)
