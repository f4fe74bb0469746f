"""Rotary position embedding, RoPE (Su et al. 2021, RoFormer, section 3.2; equation 34).

Instead of adding a position vector to the input, RoPE rotates each query and
each key by an angle proportional to its position. The d_k features come in
pairs (2i, 2i + 1), and the pair of position m turns by m * theta_i with

    theta_i = base^(-2i / d_k),   i = 0 .. d_k / 2 - 1,   base = 10000,

the same frequencies as the sinusoidal encoding of :mod:`attn.position`. A
rotation by m theta followed by the inverse of one by n theta is a rotation by
(m - n) theta, so the score rope(q, m) . rope(k, n) depends on the positions
only through the offset m - n.

Taught on: docs/12-positions-after-2017.md
"""

import numpy as np


def rope_frequencies(d_k, base=10000.0):
    """RoPE's rotation speeds theta_i = base^(-2i / d_k), radians per position, one per feature pair.

    d_k: even width, base > 0 -> (d_k / 2,) float64, decreasing from 1.

    >>> rope_frequencies(4)  # (d_k / 2,): 10000^0, 10000^(-1/2)
    array([1.  , 0.01])

    Taught on: docs/15-long-context.md
    """
    if not isinstance(d_k, int) or d_k < 2 or d_k % 2:
        raise ValueError(f"d_k must be an even int >= 2, got {d_k!r}")
    if not base > 0:
        raise ValueError(f"base must be positive, got {base!r}")
    return base ** (-np.arange(0, d_k, 2) / d_k)  # (d_k / 2,)


def apply_rope(x, positions=None, base=10000.0, theta=None):
    """Rotate each feature pair (2i, 2i + 1) of row p by the angle positions[p] * base^(-2i / d_k).

    x: (..., n, d_k) with d_k even, positions: (n,) numbers, default 0 .. n - 1, theta: None or
    (d_k / 2,) rotation speeds to use instead of :func:`rope_frequencies` (a context-extension
    method's, from :mod:`attn.rope_scaling`) -> (..., n, d_k) float, a new array:
    out_2i = x_2i cos(a) - x_2i+1 sin(a), out_2i+1 = x_2i sin(a) + x_2i+1 cos(a).
    Every row keeps its length.

    >>> apply_rope(np.array([[1.0, 0.0], [1.0, 0.0]])).round(3)  # position 1 turns (1, 0) by 1 radian
    array([[1.   , 0.   ],
           [0.54 , 0.841]])

    Taught on: docs/12-positions-after-2017.md
    """
    x = np.asarray(x)
    x = x.astype(np.result_type(x.dtype, np.float32), copy=False)  # ints -> float64
    if x.ndim < 2 or x.shape[-1] % 2:
        raise ValueError(f"x must be (..., n, d_k) with d_k even, got shape {x.shape}")
    if not base > 0:
        raise ValueError(f"base must be positive, got {base!r}")
    n, d_k = x.shape[-2:]
    positions = np.arange(n) if positions is None else np.asarray(positions)
    if positions.shape != (n,):
        raise ValueError(f"positions must have shape ({n},), got {positions.shape}")
    theta = rope_frequencies(int(d_k), base) if theta is None else np.asarray(theta, dtype=np.float64)
    if theta.shape != (d_k // 2,):
        raise ValueError(f"theta must have shape ({d_k // 2},), got {theta.shape}")
    angle = positions[:, None] * theta  # (n, d_k / 2)
    cos, sin = np.cos(angle).astype(x.dtype), np.sin(angle).astype(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]  # (..., n, d_k / 2) each, views
    out = np.empty_like(x)  # (..., n, d_k)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
