"""Pre-norm layers, beside the paper's post-norm ones, and stacks of each.

    post-norm (Vaswani et al. 2017):  x <- LayerNorm(x + Sublayer(x))
    pre-norm:                          x <- x + Sublayer(LayerNorm(x))

A pre-norm stack leaves the residual path untouched from the embedding to
the last layer, x_N = x_0 + (the sum of every sublayer's output), and
normalises only what each sublayer reads. Its output is therefore not
normalised, and a pre-norm model adds one final layer norm before the
prediction (Xiong et al. 2020, section 3.3). Parameters are those of
attn.init_encoder_layer; the final norm's are attn.init_layer_norm's.

Taught on: docs/12-positions-after-2017.md
"""

from .layers import encoder_layer, feed_forward, layer_norm
from .multihead import multi_head_attention


def pre_norm_layer(x, params, h, mask=None):
    """One pre-norm layer: x + MultiHead(LN(x)), then that plus FFN(LN(of it)).

    x: (..., n, d_model), params: as for attn.encoder_layer, h: heads, mask:
    bool broadcastable to (..., n, n) -> (..., n, d_model)

    >>> import numpy as np
    >>> from attn.init import init_encoder_layer
    >>> params = init_encoder_layer(np.random.default_rng(0), d_model=8, d_ff=16)
    >>> pre_norm_layer(np.ones((5, 8)), params, h=2).shape  # (n, d_model)
    (5, 8)

    Taught on: docs/12-positions-after-2017.md
    """
    z = layer_norm(x, **params["norm1"])  # (..., n, d_model)
    x = x + multi_head_attention(z, z, params["self_attn"], h, mask)
    x = x + feed_forward(layer_norm(x, **params["norm2"]), params["ffn"])
    return x


def pre_norm_stack(x, layers, h, final_norm, mask=None):
    """N pre-norm layers, then the final layer norm (skipped when final_norm is None).

    x: (..., n, d_model), layers: list of N encoder-layer dicts, h: heads,
    final_norm: {"gamma", "beta"} (d_model,) each, or None -> (..., n, d_model)

    >>> import numpy as np
    >>> from attn.init import init_encoder_layer, init_layer_norm
    >>> rng = np.random.default_rng(0)
    >>> layers = [init_encoder_layer(rng, 8, 16) for _ in range(3)]
    >>> y = pre_norm_stack(rng.standard_normal((5, 8)), layers, 2, init_layer_norm(8))  # (n, d_model)
    >>> y.shape, bool(np.allclose(y.mean(axis=-1), 0))  # the final norm centres every token
    ((5, 8), True)

    Taught on: docs/12-positions-after-2017.md
    """
    for params in layers:
        x = pre_norm_layer(x, params, h, mask)
    return x if final_norm is None else layer_norm(x, **final_norm)


def post_norm_stack(x, layers, h, mask=None):
    """N post-norm layers, as in the paper: attn.encoder_layer applied N times.

    x: (..., n, d_model), layers: list of N encoder-layer dicts, h: heads
    -> (..., n, d_model); its last operation is already a layer norm.

    >>> import numpy as np
    >>> from attn.init import init_encoder_layer
    >>> rng = np.random.default_rng(0)
    >>> layers = [init_encoder_layer(rng, 8, 16) for _ in range(2)]
    >>> post_norm_stack(rng.standard_normal((5, 8)), layers, h=2).shape  # (n, d_model)
    (5, 8)

    Taught on: docs/12-positions-after-2017.md
    """
    for params in layers:
        x = encoder_layer(x, params, h, mask)
    return x
