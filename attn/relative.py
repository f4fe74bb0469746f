"""Relative position representations (Shaw, Uszkoreit and Vaswani 2018).

No position vector is added to the input. Instead, the pair (query i, key j)
gets learned vectors that depend only on the offset j - i, clipped to
[-k, k] (the paper's section 3.2):

    a_ij^K = w^K[clip(j - i, k)],   a_ij^V = w^V[clip(j - i, k)],

and they enter the score and the output (its equations 4 and 3):

    e_ij = q_i . (k_j + a_ij^K) / sqrt(d_k)
         = q_i . k_j / sqrt(d_k) + q_i . a_ij^K / sqrt(d_k)     (equation 5)
    z_i  = sum_j alpha_ij (v_j + a_ij^V),   alpha_i = softmax(e_i).

The second term of e_ij is a bias on the score that depends on the query and
the clipped offset, never on where the pair sits in the sequence. The tables
w^K (2k + 1, d_k) and w^V (2k + 1, d_v) hold 2k + 1 rows whatever n is.

Taught on: docs/12-positions-after-2017.md
"""

import math

import numpy as np

from ._validate import check_int
from .core import dot_product_weights


def relative_offsets(n_q, n_k, clip):
    """The clipped offset of every (query, key) pair: clip(j - i, k) = max(-k, min(k, j - i)).

    -> (n_q, n_k) int64 in [-clip, clip]; add ``clip`` to index a table of
    2 * clip + 1 rows.

    >>> relative_offsets(3, 4, clip=1)
    array([[ 0,  1,  1,  1],
           [-1,  0,  1,  1],
           [-1, -1,  0,  1]])

    Taught on: docs/12-positions-after-2017.md
    """
    n_q, n_k, clip = check_int(n_q, "n_q", 0), check_int(n_k, "n_k", 0), check_int(clip, "clip", 0)
    offsets = np.arange(n_k)[None, :] - np.arange(n_q)[:, None]  # (n_q, n_k): j - i
    return np.clip(offsets, -clip, clip)


def relative_attention(q, k, v, w_k, w_v=None, mask=None, return_weights=False):
    """Self-attention with relative position representations (Shaw et al. 2018, equations 3 to 5).

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v); w_k:
    (2 * clip + 1, d_k) and w_v: (2 * clip + 1, d_v) or None, row r for the
    clipped offset r - clip; mask: bool broadcastable to (..., n_q, n_k),
    True = may attend -> (..., n_q, d_v), or (out, weights (..., n_q, n_k))
    when ``return_weights``.

    >>> rng = np.random.default_rng(0)
    >>> q, k, v = (rng.standard_normal((5, 4)) for _ in range(3))  # (n, d_k) each
    >>> w_k, w_v = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))  # clip = 1: offsets -1, 0, 1
    >>> relative_attention(q, k, v, w_k, w_v).shape  # (n_q, d_v)
    (5, 4)

    Taught on: docs/12-positions-after-2017.md
    """
    q, k, v = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64), np.asarray(v, dtype=np.float64)
    w_k = np.asarray(w_k, dtype=np.float64)
    if w_k.ndim != 2 or w_k.shape[0] % 2 == 0 or w_k.shape[1] != q.shape[-1]:
        raise ValueError(f"w_k must be (2 * clip + 1, d_k = {q.shape[-1]}), got {w_k.shape}")
    clip = w_k.shape[0] // 2
    n_q, n_k = q.shape[-2], k.shape[-2]
    index = relative_offsets(n_q, n_k, clip) + clip  # (n_q, n_k): row of the table
    a_k = w_k[index]  # (n_q, n_k, d_k)
    bias = np.einsum("...id,ijd->...ij", q, a_k) / math.sqrt(q.shape[-1])  # (..., n_q, n_k): q_i . a_ij^K / sqrt(d_k)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise TypeError(f"mask must be boolean (True = may attend), got {mask.dtype}")
    weights = dot_product_weights(q, k, mask, bias=bias)  # (..., n_q, n_k)
    out = weights @ v  # (..., n_q, d_v)
    if w_v is not None:
        w_v = np.asarray(w_v, dtype=np.float64)
        if w_v.shape != (w_k.shape[0], v.shape[-1]):
            raise ValueError(f"w_v must be ({w_k.shape[0]}, d_v = {v.shape[-1]}), got {w_v.shape}")
        out = out + np.einsum("...ij,ijd->...id", weights, w_v[index])  # (..., n_q, d_v)
    return (out, weights) if return_weights else out
