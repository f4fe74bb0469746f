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

from ._validate import check_int, check_rng


def init_attention(rng, d_model, d_k=None, d_v=None):
    """Projections of one attention head.

    -> {"W_q": (d_model, d_k), "W_k": (d_model, d_k), "W_v": (d_model, d_v)};
    d_k defaults to d_model, d_v to d_k.

    >>> {name: w.shape for name, w in init_attention(np.random.default_rng(0), 8, d_k=4, d_v=3).items()}
    {'W_q': (8, 4), 'W_k': (8, 4), 'W_v': (8, 3)}

    Taught on: docs/03-queries-keys-values.md
    """
    check_rng(rng)
    d_model = check_int(d_model, "d_model", minimum=1)
    d_k = d_model if d_k is None else check_int(d_k, "d_k", minimum=1)
    d_v = d_k if d_v is None else check_int(d_v, "d_v", minimum=1)
    return {
        "W_q": _glorot(rng, d_model, d_k),
        "W_k": _glorot(rng, d_model, d_k),
        "W_v": _glorot(rng, d_model, d_v),
    }


def init_multi_head(rng, d_model):
    """Full-width projections of multi-head attention (any h dividing d_model).

    -> {"W_q", "W_k", "W_v", "W_o"}, each (d_model, d_model)

    >>> sorted((name, w.shape) for name, w in init_multi_head(np.random.default_rng(0), 8).items())
    [('W_k', (8, 8)), ('W_o', (8, 8)), ('W_q', (8, 8)), ('W_v', (8, 8))]

    Taught on: docs/05-multi-head.md
    """
    check_rng(rng)
    d_model = check_int(d_model, "d_model", minimum=1)
    return {name: _glorot(rng, d_model, d_model) for name in ("W_q", "W_k", "W_v", "W_o")}


def init_feed_forward(rng, d_model, d_ff):
    """Parameters of the position-wise feed-forward network.

    -> {"W_1": (d_model, d_ff), "b_1": (d_ff,), "W_2": (d_ff, d_model), "b_2": (d_model,)}

    >>> {name: w.shape for name, w in init_feed_forward(np.random.default_rng(0), 8, 32).items()}
    {'W_1': (8, 32), 'b_1': (32,), 'W_2': (32, 8), 'b_2': (8,)}

    Taught on: docs/07-full-block.md
    """
    check_rng(rng)
    d_model = check_int(d_model, "d_model", minimum=1)
    d_ff = check_int(d_ff, "d_ff", minimum=1)
    return {
        "W_1": _glorot(rng, d_model, d_ff),
        "b_1": np.zeros(d_ff),
        "W_2": _glorot(rng, d_ff, d_model),
        "b_2": np.zeros(d_model),
    }


def init_layer_norm(d_model):
    """LayerNorm's gain and bias: -> {"gamma": ones (d_model,), "beta": zeros (d_model,)}.

    >>> init_layer_norm(3)
    {'gamma': array([1., 1., 1.]), 'beta': array([0., 0., 0.])}

    Taught on: docs/07-full-block.md
    """
    d_model = check_int(d_model, "d_model", minimum=1)
    return {"gamma": np.ones(d_model), "beta": np.zeros(d_model)}


def init_encoder_layer(rng, d_model, d_ff):
    """Parameters of :func:`attn.layers.encoder_layer`.

    -> {"self_attn", "norm1", "ffn", "norm2"} (see :mod:`attn.layers`)

    >>> list(init_encoder_layer(np.random.default_rng(0), d_model=8, d_ff=32))
    ['self_attn', 'norm1', 'ffn', 'norm2']

    Taught on: docs/07-full-block.md
    """
    check_rng(rng)
    return {
        "self_attn": init_multi_head(rng, d_model),
        "norm1": init_layer_norm(d_model),
        "ffn": init_feed_forward(rng, d_model, d_ff),
        "norm2": init_layer_norm(d_model),
    }


def init_decoder_layer(rng, d_model, d_ff):
    """Parameters of :func:`attn.layers.decoder_layer`.

    -> {"self_attn", "norm1", "cross_attn", "norm2", "ffn", "norm3"}

    >>> list(init_decoder_layer(np.random.default_rng(0), d_model=8, d_ff=32))
    ['self_attn', 'norm1', 'cross_attn', 'norm2', 'ffn', 'norm3']

    Taught on: docs/07-full-block.md
    """
    check_rng(rng)
    return {
        "self_attn": init_multi_head(rng, d_model),
        "norm1": init_layer_norm(d_model),
        "cross_attn": init_multi_head(rng, d_model),
        "norm2": init_layer_norm(d_model),
        "ffn": init_feed_forward(rng, d_model, d_ff),
        "norm3": init_layer_norm(d_model),
    }


def _glorot(rng, fan_in, fan_out):
    """Xavier/Glorot normal weights -> (fan_in, fan_out), for sizes already checked."""
    return rng.standard_normal((fan_in, fan_out)) * math.sqrt(2.0 / (fan_in + fan_out))
