"""Feed-forward networks after 2017: GELU, and the gated SwiGLU of Llama-shaped decoders.

The paper's network is max(0, x W_1 + b_1) W_2 + b_2. GELU (Hendrycks and
Gimpel 2016) replaces the ReLU by x Phi(x), Phi the standard normal CDF.
SwiGLU (Shazeer 2020, GLU Variants Improve Transformer, equation 6) gates
the hidden units instead, without biases:

    FFN_SwiGLU(x) = (Swish(x W) * (x V)) W_2,   Swish(a) = a * sigmoid(a).

It has three weight matrices where the paper's network has two, so at the
same d_ff it costs 3 d_model d_ff parameters against 2 d_model d_ff; taking
d_ff two thirds as wide keeps the count.

Parameter layout: {"W" (d_model, d_ff), "V" (d_model, d_ff), "W_2" (d_ff, d_model)}.

Taught on: docs/14-modern-decoder.md
"""

import math

import numpy as np

from ._validate import check_int, check_rng, float_arrays


def gelu(x, approximate=False):
    """GELU(x) = x * Phi(x), Phi the standard normal CDF, elementwise.

    x: any shape -> float array of the same shape. approximate=True gives
    the tanh form 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) of
    Hendrycks and Gimpel (2016, section 2), which GPT-2 uses.

    >>> gelu(np.array([-1.0, 0.0, 1.0])).round(4)  # Phi(1) = 0.8413
    array([-0.1587,  0.    ,  0.8413])

    Taught on: docs/14-modern-decoder.md
    """
    (x,) = float_arrays(x=x)
    if approximate:
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))
    erf = np.frompyfunc(math.erf, 1, 1)
    return x * 0.5 * (1.0 + erf(x / math.sqrt(2.0)).astype(x.dtype))


def silu(x):
    """Swish with beta = 1, also called SiLU: x * sigmoid(x), elementwise.

    x: any shape -> float array of the same shape.

    >>> silu(np.array([0.0, 1.0])).round(4)  # 1 * sigmoid(1)
    array([0.    , 0.7311])

    Taught on: docs/14-modern-decoder.md
    """
    (x,) = float_arrays(x=x)
    return x / (1.0 + np.exp(-x))


def gelu_feed_forward(x, params):
    """FFN_GELU(x) = GELU(x W_1 + b_1) W_2 + b_2: the paper's network with GELU for ReLU.

    x: (..., n, d_model), params: as attn.init_feed_forward makes them
    {"W_1" (d_model, d_ff), "b_1" (d_ff,), "W_2" (d_ff, d_model), "b_2" (d_model,)}
    -> (..., n, d_model)

    >>> params = {"W_1": np.eye(2), "b_1": np.zeros(2), "W_2": np.eye(2), "b_2": np.zeros(2)}
    >>> gelu_feed_forward(np.array([[1.0, -1.0]]), params).round(4)  # (n, d_model) -> (n, d_model)
    array([[ 0.8413, -0.1587]])

    Taught on: docs/14-modern-decoder.md
    """
    (x,) = float_arrays(x=x)
    return gelu(x @ params["W_1"] + params["b_1"]) @ params["W_2"] + params["b_2"]


def swiglu_feed_forward(x, params):
    """FFN_SwiGLU(x) = (Swish(x W) * (x V)) W_2: a gate on every hidden unit, no biases.

    x: (..., n, d_model), params: {"W" (d_model, d_ff), "V" (d_model, d_ff),
    "W_2" (d_ff, d_model)} -> (..., n, d_model)

    >>> params = {"W": np.eye(2), "V": 2 * np.eye(2), "W_2": np.eye(2)}
    >>> swiglu_feed_forward(np.array([[1.0, 0.0]]), params).round(4)  # silu(1) * 2
    array([[1.4621, 0.    ]])

    Taught on: docs/14-modern-decoder.md
    """
    (x,) = float_arrays(x=x)
    gate = silu(x @ params["W"])  # (..., n, d_ff)
    return (gate * (x @ params["V"])) @ params["W_2"]


def init_swiglu(rng, d_model, d_ff):
    """Random SwiGLU parameters, each matrix N(0, 1 / fan_in).

    -> {"W": (d_model, d_ff), "V": (d_model, d_ff), "W_2": (d_ff, d_model)}

    >>> {name: w.shape for name, w in init_swiglu(np.random.default_rng(0), 8, 12).items()}
    {'W': (8, 12), 'V': (8, 12), 'W_2': (12, 8)}

    Taught on: docs/14-modern-decoder.md
    """
    check_rng(rng)
    d_model, d_ff = check_int(d_model, "d_model", 1), check_int(d_ff, "d_ff", 1)
    return {
        "W": rng.standard_normal((d_model, d_ff)) / math.sqrt(d_model),
        "V": rng.standard_normal((d_model, d_ff)) / math.sqrt(d_model),
        "W_2": rng.standard_normal((d_ff, d_model)) / math.sqrt(d_ff),
    }
