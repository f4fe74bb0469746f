"""ALiBi, attention with linear biases (Press et al. 2022, Train Short, Test Long).

No position vector is added anywhere. Each head adds to the score of query i
and key j a bias proportional to their distance,

    softmax(q_i K^T / sqrt(d_k) + m * [-(i - 1), ..., -1, 0])

(the paper's section 3, for the keys j <= i a causal model may see), with a
fixed, unlearned slope m per head. For h heads the slopes are the geometric
sequence that starts at 2^(-8 / h) and has that same ratio: for h = 8,
1/2, 1/4, ..., 1/256. The paper trains only models whose h is a power of two;
for other h, :func:`alibi_slopes` follows the authors' released code, which
takes the slopes of the nearest smaller power of two and fills in every
other slope of the next larger one.

Taught on: docs/12-positions-after-2017.md
"""

import math

import numpy as np

from ._validate import check_int
from .core import dot_product_weights


def alibi_slopes(h):
    """The h head slopes of ALiBi: 2^(-8 k / h) for k = 1 .. h when h is a power of two.

    -> (h,) float64, decreasing. Other h: the slopes for the largest power of
    two p below h, then every other slope of 2p (the authors' code).

    >>> alibi_slopes(4)  # 2^-2, 2^-4, 2^-6, 2^-8
    array([0.25      , 0.0625    , 0.015625  , 0.00390625])

    Taught on: docs/12-positions-after-2017.md
    """
    h = check_int(h, "h", 1)
    p = 2 ** int(math.floor(math.log2(h)))  # the largest power of two <= h
    slopes = 2.0 ** (-8.0 * np.arange(1, p + 1) / p)  # (p,)
    if p == h:
        return slopes
    return np.concatenate([slopes, alibi_slopes(2 * p)[0::2][: h - p]])  # (h,)


def alibi_bias(n, slopes):
    """The bias ALiBi adds to the scores: -m * (i - j) for query i and key j, one matrix per head.

    n: positions, slopes: (h,) -> (h, n, n) float64, linear in the distance
    i - j. Only the entries j <= i are used: :func:`alibi_attention` masks
    the rest (a key in the future gets a positive number here, never a weight).

    >>> alibi_bias(3, [0.5])  # one head: (h, n, n); the upper triangle is masked in use
    array([[[ 0. ,  0.5,  1. ],
            [-0.5,  0. ,  0.5],
            [-1. , -0.5,  0. ]]])

    Taught on: docs/12-positions-after-2017.md
    """
    n = check_int(n, "n", 0)
    slopes = np.asarray(slopes, dtype=np.float64)
    if slopes.ndim != 1:
        raise ValueError(f"slopes must be 1-D (h,), got shape {slopes.shape}")
    j_minus_i = np.arange(n) - np.arange(n)[:, None]  # (n, n): minus the distance i - j
    return slopes[:, None, None] * j_minus_i  # (h, n, n): -m (i - j), and +0.0 on the diagonal


def alibi_attention(q, k, v, slopes, return_weights=False):
    """Causal attention with ALiBi: softmax(q k^T / sqrt(d_k) + bias, future masked) v, head by head.

    q, k: (..., h, n, d_k), v: (..., h, n, d_v), slopes: (h,)
    -> (..., h, n, d_v), or (out, weights (..., h, n, n)) when
    ``return_weights``. No position encoding is needed anywhere else.

    >>> rng = np.random.default_rng(0)
    >>> q, k, v = (rng.standard_normal((8, 5, 4)) for _ in range(3))  # (h, n, d) each
    >>> out, weights = alibi_attention(q, k, v, alibi_slopes(8), return_weights=True)
    >>> out.shape, float(weights[0, 0, 1])  # (h, n, d_v); the first query sees only itself
    ((8, 5, 4), 0.0)

    Taught on: docs/12-positions-after-2017.md
    """
    q, k, v = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64), np.asarray(v, dtype=np.float64)
    if q.ndim < 3 or q.shape[-2:] != k.shape[-2:] or k.shape[:-1] != v.shape[:-1]:
        raise ValueError(f"need q, k (..., h, n, d_k) and v (..., h, n, d_v), got {q.shape}, {k.shape}, {v.shape}")
    h, n = q.shape[-3], q.shape[-2]
    if np.shape(slopes) != (h,):
        raise ValueError(f"{h} heads need {h} slopes, got shape {np.shape(slopes)}")
    past = np.arange(n)[None, :] <= np.arange(n)[:, None]  # (n, n): key j at or before query i
    weights = dot_product_weights(q, k, past, bias=alibi_bias(n, slopes))  # (..., h, n, n)
    out = weights @ v  # (..., h, n, d_v)
    return (out, weights) if return_weights else out
