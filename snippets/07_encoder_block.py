# %% setup
import numpy as np

from attn import (
    count_parameters,
    encoder_layer,
    feed_forward,
    init_encoder_layer,
    layer_norm,
    multi_head_attention,
)

# d_ff: the feed-forward's hidden width.
seed, n, d_model, h, d_ff = 0, 4, 8, 2, 32
rng = np.random.default_rng(seed)
# init_encoder_layer assembles init_multi_head, init_feed_forward
# and init_layer_norm (gamma ones, beta zeros).
params = init_encoder_layer(rng, d_model, d_ff)  # weights first,
x = rng.standard_normal((n, d_model))  # then the input: (n, d_model)

# %% block
# Sublayer 1, self-attention: x = LayerNorm(x + Sublayer(x)).
attention_out = multi_head_attention(x, x, params["self_attn"], h)
# x and attention_out: both (n, d_model).
x1 = layer_norm(x + attention_out, **params["norm1"])

# Sublayer 2, the position-wise feed-forward network,
# wrapped the same way.
ffn = params["ffn"]
# (n, d_ff): widen, ReLU.
hidden = np.maximum(x1 @ ffn["W_1"] + ffn["b_1"], 0.0)
ffn_out = hidden @ ffn["W_2"] + ffn["b_2"]  # (n, d_model)
out = layer_norm(x1 + ffn_out, **params["norm2"])  # (n, d_model)

print("input           x:", x.shape)
print("attention       A:", attention_out.shape)
print("after norm     x1:", x1.shape)
print("ffn hidden       :", hidden.shape)
print("ffn output       :", ffn_out.shape)
print("block output  out:", out.shape)

# %% checks
# The lines above are the library's layer; LayerNorm leaves every row with mean 0 and std 1 (less eps).
assert np.allclose(ffn_out, feed_forward(x1, ffn)) and np.allclose(out, encoder_layer(x, params, h))
row_means = out.mean(axis=-1).round(12) + 0.0  # + 0.0 turns -0.0 into 0.0
row_stds = out.std(axis=-1)
assert (row_stds < 1).all(), "the eps inside LayerNorm's square root keeps every std below 1"
n_params, n_ffn_params = count_parameters(params), count_parameters(params["ffn"])

print("row means of out:", row_means)
print("row stds of out: ", row_stds.round(3))
print("parameters:", n_params, " in the feed-forward network:", n_ffn_params)
