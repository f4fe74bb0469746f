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

    Taught on: docs/12-positions-after-2017.md
    """
    for params in layers:
        x = pre_norm_layer(x, params, h, mask)
    return x if final_norm is None else layer_norm(x, **final_norm)


def post_norm_stack(x, layers, h, mask=None):
    """N post-norm layers, as in the paper: attn.encoder_layer applied N times.

    x: (..., n, d_model), layers: list of N encoder-layer dicts, h: heads
    -> (..., n, d_model); its last operation is already a layer norm.

    Taught on: docs/12-positions-after-2017.md
    """
    for params in layers:
        x = encoder_layer(x, params, h, mask)
    return x
