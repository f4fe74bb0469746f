"""The encoder and decoder layers as training runs them: dropout, and a backward pass.

Residual dropout (Vaswani et al. 2017, 5.4): each sub-layer's output is
dropped out before it is added to the sub-layer's input and normalised,

    x <- LayerNorm(x + Dropout(Sublayer(x))),

so with ``p_drop = 0`` these layers compute exactly what
:func:`attn.layers.encoder_layer` and :func:`attn.layers.decoder_layer` compute.
The randomness comes from an explicit ``numpy.random.Generator``; ``rng=None``
turns dropout off. Each ``*_forward`` returns its output and a cache (the
sums before each LayerNorm, the sub-layer inputs and the dropout masks) that
its ``*_backward`` reads, in reverse order. Every function keeps the floating
dtype of its input and weights (float32 in, float32 caches and gradients out).

Taught on: docs/10-training.md
"""

import numpy as np

from .backward import feed_forward_backward, layer_norm_backward, multi_head_attention_backward
from .layers import feed_forward, layer_norm
from .multihead import multi_head_attention


def dropout(x, p_drop, rng):
    """Zero each entry with probability p_drop and scale the survivors by 1 / (1 - p_drop).

    The scaling keeps every entry's expected value, so nothing changes at
    inference, where dropout is off. x: (...), p_drop in [0, 1), rng: a
    numpy Generator or None (no dropout)
    -> (y (...) of x's dtype, keep: bool (...) or None when nothing was dropped).
    The mask does not depend on x's dtype: one seed drops the same entries of a
    float32 and a float64 x.

    >>> y, keep = dropout(np.ones(6), 0.5, np.random.default_rng(0))
    >>> y  # the kept entries doubled
    array([2., 0., 0., 0., 2., 2.])

    Taught on: docs/10-training.md
    """
    if not 0.0 <= p_drop < 1.0:
        raise ValueError(f"p_drop must lie in [0, 1), got {p_drop!r}")
    if rng is None or p_drop == 0.0:
        return x, None
    keep = rng.random(np.shape(x)) >= p_drop  # (...): True with probability 1 - p_drop
    return x * keep / (1.0 - p_drop), keep


def dropout_backward(d_y, keep, p_drop):
    """The gradient through :func:`dropout`: the same mask, the same scale.

    d_y: (...), keep: bool (...) or None -> d_x (...)

    >>> dropout_backward(np.ones(3), np.array([True, False, True]), 0.5)
    array([2., 0., 2.])

    Taught on: docs/10-training.md
    """
    return d_y if keep is None else d_y * keep / (1.0 - p_drop)


def encoder_layer_forward(x, params, h, mask=None, p_drop=0.0, rng=None):
    """One encoder layer with residual dropout, keeping what the backward pass needs.

    x: (..., n, d_model), params: see :mod:`attn.layers`, h: heads, mask: bool
    broadcastable to (..., n, n) -> (out (..., n, d_model), cache: dict)

    >>> from attn import init_encoder_layer
    >>> layer = init_encoder_layer(np.random.default_rng(0), 8, 16)
    >>> out, cache = encoder_layer_forward(np.ones((2, 3, 8)), layer, 2, p_drop=0.1, rng=np.random.default_rng(1))
    >>> out.shape, sorted(cache)
    ((2, 3, 8), ['keep1', 'keep2', 's1', 's2', 'x', 'x1'])

    Taught on: docs/10-training.md
    """
    x1, s1, keep1 = _residual(x, multi_head_attention(x, x, params["self_attn"], h, mask), params["norm1"], p_drop, rng)
    out, s2, keep2 = _residual(x1, feed_forward(x1, params["ffn"]), params["norm2"], p_drop, rng)
    return out, {"x": x, "s1": s1, "x1": x1, "s2": s2, "keep1": keep1, "keep2": keep2}


def encoder_layer_backward(d_out, cache, params, h, mask=None, p_drop=0.0):
    """The gradients of :func:`encoder_layer_forward`, its steps in reverse.

    d_out: (..., n, d_model), cache: from the forward pass
    -> (dx (..., n, d_model), grads shaped like params)

    >>> from attn import init_encoder_layer
    >>> layer = init_encoder_layer(np.random.default_rng(0), 8, 16)
    >>> out, cache = encoder_layer_forward(np.ones((2, 3, 8)), layer, 2)
    >>> dx, grads = encoder_layer_backward(np.ones((2, 3, 8)), cache, layer, 2)
    >>> dx.shape, grads["ffn"]["W_1"].shape
    ((2, 3, 8), (8, 16))

    Taught on: docs/10-training.md
    """
    d_x1, d_f, g_norm2 = _residual_backward(d_out, cache["s2"], cache["keep2"], params["norm2"], p_drop)
    d_x1_ffn, g_ffn = feed_forward_backward(d_f, cache["x1"], params["ffn"])
    dx, d_a, g_norm1 = _residual_backward(d_x1 + d_x1_ffn, cache["s1"], cache["keep1"], params["norm1"], p_drop)
    d_q, d_kv, g_attn = multi_head_attention_backward(d_a, cache["x"], cache["x"], params["self_attn"], h, mask)
    return dx + d_q + d_kv, {"self_attn": g_attn, "norm1": g_norm1, "ffn": g_ffn, "norm2": g_norm2}


def decoder_layer_forward(y, memory, params, h, self_mask=None, memory_mask=None, p_drop=0.0, rng=None):
    """One decoder layer with residual dropout, keeping what the backward pass needs.

    y: (..., n, d_model), memory: (..., m, d_model) the encoder output,
    self_mask: bool broadcastable to (..., n, n) (pass the causal mask: None
    here means no mask), memory_mask: bool broadcastable to (..., n, m)
    -> (out (..., n, d_model), cache: dict)

    >>> from attn import causal_mask, init_decoder_layer
    >>> layer = init_decoder_layer(np.random.default_rng(0), 8, 16)
    >>> out, cache = decoder_layer_forward(np.ones((2, 3, 8)), np.ones((2, 5, 8)), layer, 2, causal_mask(3))
    >>> out.shape
    (2, 3, 8)

    Taught on: docs/10-training.md
    """
    a = multi_head_attention(y, y, params["self_attn"], h, self_mask)  # (..., n, d_model)
    y1, s1, keep1 = _residual(y, a, params["norm1"], p_drop, rng)
    c = multi_head_attention(y1, memory, params["cross_attn"], h, memory_mask)  # (..., n, d_model)
    y2, s2, keep2 = _residual(y1, c, params["norm2"], p_drop, rng)
    out, s3, keep3 = _residual(y2, feed_forward(y2, params["ffn"]), params["norm3"], p_drop, rng)
    cache = {
        "y": y,
        "memory": memory,
        "s1": s1,
        "y1": y1,
        "s2": s2,
        "y2": y2,
        "s3": s3,
        "keep1": keep1,
        "keep2": keep2,
        "keep3": keep3,
    }
    return out, cache


def decoder_layer_backward(d_out, cache, params, h, self_mask=None, memory_mask=None, p_drop=0.0):
    """The gradients of :func:`decoder_layer_forward`, its steps in reverse.

    d_out: (..., n, d_model), cache: from the forward pass
    -> (dy (..., n, d_model), d_memory (..., m, d_model), grads shaped like params)

    >>> from attn import causal_mask, init_decoder_layer
    >>> layer = init_decoder_layer(np.random.default_rng(0), 8, 16)
    >>> out, cache = decoder_layer_forward(np.ones((2, 3, 8)), np.ones((2, 5, 8)), layer, 2, causal_mask(3))
    >>> dy, d_memory, grads = decoder_layer_backward(np.ones((2, 3, 8)), cache, layer, 2, causal_mask(3))
    >>> dy.shape, d_memory.shape, sorted(grads) == sorted(layer)
    ((2, 3, 8), (2, 5, 8), True)

    Taught on: docs/10-training.md
    """
    d_y2, d_f, g_norm3 = _residual_backward(d_out, cache["s3"], cache["keep3"], params["norm3"], p_drop)
    d_y2_ffn, g_ffn = feed_forward_backward(d_f, cache["y2"], params["ffn"])
    d_y1, d_c, g_norm2 = _residual_backward(d_y2 + d_y2_ffn, cache["s2"], cache["keep2"], params["norm2"], p_drop)
    d_y1_cross, d_memory, g_cross = multi_head_attention_backward(
        d_c, cache["y1"], cache["memory"], params["cross_attn"], h, memory_mask
    )
    dy, d_a, g_norm1 = _residual_backward(d_y1 + d_y1_cross, cache["s1"], cache["keep1"], params["norm1"], p_drop)
    d_q, d_kv, g_self = multi_head_attention_backward(d_a, cache["y"], cache["y"], params["self_attn"], h, self_mask)
    grads = {
        "self_attn": g_self,
        "norm1": g_norm1,
        "cross_attn": g_cross,
        "norm2": g_norm2,
        "ffn": g_ffn,
        "norm3": g_norm3,
    }
    return dy + d_q + d_kv, d_memory, grads


def _residual(x, sublayer_out, norm, p_drop, rng):
    """LayerNorm(x + Dropout(sublayer_out)) -> (out, the sum before the norm, the dropout mask)."""
    dropped, keep = dropout(sublayer_out, p_drop, rng)
    s = x + dropped  # (..., n, d_model)
    return layer_norm(s, **norm), s, keep


def _residual_backward(d_out, s, keep, norm, p_drop):
    """The gradients of :func:`_residual` -> (d_x, d_sublayer_out, {"gamma", "beta"}).

    The sum sends the same gradient to x (the residual path) and, through
    dropout, to the sub-layer's output.
    """
    d_s, grads = layer_norm_backward(d_out, s, norm["gamma"])
    return d_s, dropout_backward(d_s, keep, p_drop), grads
