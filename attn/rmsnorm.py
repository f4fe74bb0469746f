"""RMSNorm (Zhang and Sennrich 2019), the layer norm of Llama-shaped decoders.

Layer norm subtracts each vector's mean, divides by its standard deviation,
then scales by gamma and shifts by beta. RMSNorm keeps only the division and
the scale (their equation 4):

    y = gamma * x / RMS(x),   RMS(x) = sqrt(mean(x^2) + eps).

On a vector whose mean is 0 the RMS is the standard deviation, and the two
norms agree. Its backward pass, with g = gamma * dy and x_hat = x / RMS(x):

    dx = (g - x_hat * mean(g * x_hat)) / RMS(x),   dgamma = sum(dy * x_hat).

Taught on: docs/14-modern-decoder.md
"""

import numpy as np

from ._validate import check_positive, real_array


def _inverse_rms(x, eps):
    """1 / sqrt(mean(x^2) + eps) over the last axis -> (..., n, 1)."""
    return 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)


def rms_norm(x, gamma=None, eps=1e-6):
    """Scale each position by the root mean square of its features: gamma * x / sqrt(mean(x^2) + eps).

    x: (..., n, d_model), gamma: (d_model,) or None (meaning 1), eps > 0
    -> (..., n, d_model). No mean is subtracted and there is no bias.
    Integer input gives float64.

    >>> rms_norm(np.array([[3.0, 4.0]]), eps=1e-12).round(4)  # RMS of (3, 4) is sqrt(12.5)
    array([[0.8485, 1.1314]])

    Taught on: docs/14-modern-decoder.md
    """
    x = real_array(x, "x", 1, "(..., n, d_model)")
    x = x.astype(np.result_type(x.dtype, np.float32), copy=False)  # ints -> float64
    eps = check_positive(eps, "eps")
    y = x * _inverse_rms(x, eps)  # (..., n, d_model), a new array
    if gamma is not None:
        y *= gamma
    return y


def rms_norm_backward(d_y, x, gamma=None, eps=1e-6):
    """The gradients of y = gamma * x / RMS(x).

    d_y: (..., n, d_model), x: (..., n, d_model), gamma: (d_model,) or None (1)
    -> (dx (..., n, d_model), {"gamma": (d_model,)})

    >>> dx, grads = rms_norm_backward(np.array([[3.0, 4.0]]), np.array([[3.0, 4.0]]), eps=1e-12)
    >>> bool(np.abs(dx).max() < 1e-12)  # growing x along itself does not change x / RMS(x)
    True

    Taught on: docs/14-modern-decoder.md
    """
    d_y = real_array(d_y, "d_y", 1, "(..., n, d_model)")
    x = real_array(x, "x", 1, "(..., n, d_model)")
    if d_y.shape != x.shape:
        raise ValueError(f"d_y has shape {d_y.shape} but x has {x.shape}")
    eps = check_positive(eps, "eps")
    inv_rms = _inverse_rms(x, eps)  # (..., n, 1)
    x_hat = x * inv_rms  # (..., n, d_model)
    g = d_y if gamma is None else d_y * gamma  # dL/dx_hat
    dx = inv_rms * (g - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_model = x.shape[-1]
    return dx, {"gamma": (d_y * x_hat).reshape(-1, d_model).sum(axis=0)}  # (positions, d_model) -> (d_model,)
