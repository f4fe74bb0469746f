"""Random parameters for every layer in :mod:`attn`, from an explicit Generator.

Weights use Xavier/Glorot normal scaling: a (fan_in, fan_out) matrix is
``rng.standard_normal((fan_in, fan_out)) * sqrt(2 / (fan_in + fan_out))``, so
activations keep roughly unit variance through a projection. Biases and
LayerNorm's beta start at 0, gamma at 1. Every function takes a
``numpy.random.Generator`` (e.g. ``np.random.default_rng(0)``) and raises
TypeError for anything else: there is no hidden global random state.

Taught on: docs/03-queries-keys-values.md
"""

import math

import numpy as np

from ._validate import check_int


def init_attention(rng, d_model, d_k=None, d_v=None):
    """Projections of one attention head.

    -> {"W_q": (d_model, d_k), "W_k": (d_model, d_k), "W_v": (d_model, d_v)};
    d_k defaults to d_model, d_v to d_k.

    Taught on: docs/03-queries-keys-values.md
    """
    _check_rng(rng)
    d_k = d_model if d_k is None else d_k
    d_v = d_k if d_v is None else d_v
    return {
        "W_q": _glorot(rng, d_model, d_k),
        "W_k": _glorot(rng, d_model, d_k),
        "W_v": _glorot(rng, d_model, d_v),
    }


def init_multi_head(rng, d_model):
    """Full-width projections of multi-head attention (any h dividing d_model).

    -> {"W_q", "W_k", "W_v", "W_o"}, each (d_model, d_model)

    Taught on: docs/05-multi-head.md
    """
    _check_rng(rng)
    return {name: _glorot(rng, d_model, d_model) for name in ("W_q", "W_k", "W_v", "W_o")}


def init_feed_forward(rng, d_model, d_ff):
    """Parameters of the position-wise feed-forward network.

    -> {"W_1": (d_model, d_ff), "b_1": (d_ff,), "W_2": (d_ff, d_model), "b_2": (d_model,)}

    Taught on: docs/07-block-masking-cost.md
    """
    _check_rng(rng)
    return {
        "W_1": _glorot(rng, d_model, d_ff),
        "b_1": np.zeros(check_int(d_ff, "d_ff", 1)),
        "W_2": _glorot(rng, d_ff, d_model),
        "b_2": np.zeros(check_int(d_model, "d_model", 1)),
    }


def init_layer_norm(d_model):
    """LayerNorm's gain and bias: -> {"gamma": ones (d_model,), "beta": zeros (d_model,)}.

    Taught on: docs/07-block-masking-cost.md
    """
    d_model = check_int(d_model, "d_model", 1)
    return {"gamma": np.ones(d_model), "beta": np.zeros(d_model)}


def init_encoder_layer(rng, d_model, d_ff):
    """Parameters of :func:`attn.layers.encoder_layer`.

    -> {"self_attn", "norm1", "ffn", "norm2"} (see :mod:`attn.layers`)

    Taught on: docs/07-block-masking-cost.md
    """
    _check_rng(rng)
    return {
        "self_attn": init_multi_head(rng, d_model),
        "norm1": init_layer_norm(d_model),
        "ffn": init_feed_forward(rng, d_model, d_ff),
        "norm2": init_layer_norm(d_model),
    }


def init_decoder_layer(rng, d_model, d_ff):
    """Parameters of :func:`attn.layers.decoder_layer`.

    -> {"self_attn", "norm1", "cross_attn", "norm2", "ffn", "norm3"}

    Taught on: docs/07-block-masking-cost.md
    """
    _check_rng(rng)
    return {
        "self_attn": init_multi_head(rng, d_model),
        "norm1": init_layer_norm(d_model),
        "cross_attn": init_multi_head(rng, d_model),
        "norm2": init_layer_norm(d_model),
        "ffn": init_feed_forward(rng, d_model, d_ff),
        "norm3": init_layer_norm(d_model),
    }


def _glorot(rng, fan_in, fan_out):
    """Xavier/Glorot normal weights -> (fan_in, fan_out)."""
    fan_in, fan_out = check_int(fan_in, "fan_in", 1), check_int(fan_out, "fan_out", 1)
    return rng.standard_normal((fan_in, fan_out)) * math.sqrt(2.0 / (fan_in + fan_out))


def _check_rng(rng):
    """Raise TypeError unless rng is a numpy.random.Generator."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy.random.Generator (e.g. np.random.default_rng(0)), got {type(rng).__name__}"
        )
