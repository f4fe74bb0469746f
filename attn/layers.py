"""Layer norm, the position-wise feed-forward network, encoder and decoder layers.

Post-norm, as in the paper (Vaswani et al. 2017, 3.1): every sub-layer is
wrapped as ``LayerNorm(x + Sublayer(x))`` (no dropout: these are inference
only).

Parameter layout (nested dicts, as made by :mod:`attn.init`):

    encoder layer: {"self_attn": {W_q, W_k, W_v, W_o}, "norm1": {gamma, beta},
                    "ffn": {W_1, b_1, W_2, b_2},        "norm2": {gamma, beta}}
    decoder layer: {"self_attn": {...}, "norm1": {...},
                    "cross_attn": {W_q, W_k, W_v, W_o}, "norm2": {...},
                    "ffn": {...},       "norm3": {...}}

Taught on: docs/07-full-block.md
"""

import numpy as np

from ._validate import check_positive, check_same_width, float_arrays, real_array
from .core import causal_mask
from .multihead import multi_head_attention


def layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """Normalise each position over its features: gamma * (x - mean) / sqrt(var + eps) + beta.

    x: (..., n, d_model), gamma, beta: (d_model,) or None (meaning 1 and 0), eps > 0
    -> (..., n, d_model). Integer input gives float64, float16 gives float32.

    >>> layer_norm(np.array([[1.0, 2.0, 3.0]]), eps=1e-12).round(4)  # (n, d_model) -> (n, d_model)
    array([[-1.2247,  0.    ,  1.2247]])

    Taught on: docs/07-full-block.md
    """
    x = real_array(x, "x", 1, "(..., n, d_model)")
    x = x.astype(np.result_type(x.dtype, np.float32), copy=False)  # ints -> float64
    eps = check_positive(eps, "eps")
    mean = x.mean(axis=-1, keepdims=True)  # (..., n, 1)
    var = x.var(axis=-1, keepdims=True)  # (..., n, 1)
    y = (x - mean) / np.sqrt(var + eps)  # a new array: x is never written
    if gamma is not None:
        y *= gamma
    if beta is not None:
        y += beta
    return y


def feed_forward(x, params):
    """FFN(x) = max(0, x W_1 + b_1) W_2 + b_2, applied to each position alone.

    x: (..., n, d_model), params: {"W_1" (d_model, d_ff), "b_1" (d_ff,),
    "W_2" (d_ff, d_model), "b_2" (d_model,)} -> (..., n, d_model)

    >>> params = {"W_1": np.eye(2, 3), "b_1": np.array([0.0, -5.0, 1.0]), "W_2": np.ones((3, 2)), "b_2": np.zeros(2)}
    >>> feed_forward(np.array([[1.0, 2.0]]), params)  # (n, d_model) -> (n, d_model)
    array([[2., 2.]])

    Taught on: docs/07-full-block.md
    """
    (x,) = float_arrays(x=x)
    hidden = np.maximum(x @ params["W_1"] + params["b_1"], 0.0)  # (..., n, d_ff)
    return hidden @ params["W_2"] + params["b_2"]


def encoder_layer(x, params, h, mask=None):
    """One encoder layer: self-attention then feed-forward, each LayerNorm(x + Sublayer(x)).

    x: (..., n, d_model), params: see the module docstring, h: heads,
    mask: bool broadcastable to (..., n, n), e.g. a padding mask
    -> (..., n, d_model)

    >>> from attn.init import init_encoder_layer
    >>> params = init_encoder_layer(np.random.default_rng(0), d_model=8, d_ff=16)
    >>> encoder_layer(np.ones((2, 5, 8)), params, h=2).shape  # (batch, n, d_model)
    (2, 5, 8)

    Taught on: docs/07-full-block.md
    """
    x = real_array(x, "x", 2, "(..., n, d_model)")
    x = layer_norm(x + multi_head_attention(x, x, params["self_attn"], h, mask), **params["norm1"])
    x = layer_norm(x + feed_forward(x, params["ffn"]), **params["norm2"])
    return x


def decoder_layer(y, memory, params, h, self_mask=None, memory_mask=None):
    """One decoder layer: masked self-attention, cross-attention, feed-forward.

    y: (..., n, d_model) the target positions, memory: (..., m, d_model) the
    encoder output, params: see the module docstring, h: heads,
    self_mask: bool broadcastable to (..., n, n); None means
    ``causal_mask(n)`` (pass an all-True mask to turn masking off),
    memory_mask: bool broadcastable to (..., n, m), e.g. a padding mask of
    the source -> (..., n, d_model)

    >>> from attn.init import init_decoder_layer
    >>> params = init_decoder_layer(np.random.default_rng(0), d_model=8, d_ff=16)
    >>> decoder_layer(np.ones((2, 5, 8)), np.ones((2, 7, 8)), params, h=2).shape  # (batch, n, d_model)
    (2, 5, 8)

    Taught on: docs/07-full-block.md
    """
    y = real_array(y, "y", 2, "(..., n, d_model)")
    memory = real_array(memory, "memory", 2, "(..., m, d_model)")
    check_same_width(y, memory, ("y", "memory"))
    if self_mask is None:
        self_mask = causal_mask(y.shape[-2])
    y = layer_norm(y + multi_head_attention(y, y, params["self_attn"], h, self_mask), **params["norm1"])
    y = layer_norm(y + multi_head_attention(y, memory, params["cross_attn"], h, memory_mask), **params["norm2"])
    y = layer_norm(y + feed_forward(y, params["ffn"]), **params["norm3"])
    return y
