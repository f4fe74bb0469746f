import numpy as np

from attn import count_parameters, init_swiglu, layer_norm, rms_norm, swiglu_feed_forward

rng = np.random.default_rng(0)
d = 512
x = rng.standard_normal((4, d)) + 3.0  # (4, d): features with a mean of about 3
centred = x - x.mean(axis=-1, keepdims=True)
gap_centred = np.abs(rms_norm(centred, eps=1e-5) - layer_norm(centred, eps=1e-5)).max()
gap_raw = np.abs(rms_norm(x, eps=1e-5) - layer_norm(x, eps=1e-5)).max()
assert gap_centred < 1e-12  # on zero-mean rows the two agree

d_ff_relu = 4 * d  # the paper's d_ff
d_ff_swiglu = 2 * d_ff_relu // 3  # 2/3 of it, so three matrices cost two
relu_params = 2 * d * d_ff_relu
ffn = init_swiglu(rng, d, d_ff_swiglu)  # W, V, W_2
swiglu_params = count_parameters(ffn)
assert swiglu_feed_forward(x, ffn).shape == x.shape

print(f"RMSNorm - LayerNorm: {gap_centred:.1e} on centred rows, {gap_raw:.2f} on rows of mean 3")
print(f"norm parameters per layer norm: LayerNorm {2 * d}, RMSNorm {d}")
print(
    f"FFN parameters at d = {d}: ReLU {relu_params:,} (d_ff = {d_ff_relu}),"
    f" SwiGLU {swiglu_params:,} (d_ff = {d_ff_swiglu})"
)
