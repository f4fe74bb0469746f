import numpy as np

from attn import layer_norm


def rms_norm(x, gamma, eps=1e-5):
    """RMSNorm (Zhang and Sennrich 2019): x / rms(x) * gamma, no mean, no bias. (..., d) -> (..., d)."""
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * gamma


def swiglu(x, W, V, W_2):
    """SwiGLU feed-forward (Shazeer 2020): (swish(x W) * (x V)) W_2. (..., d) -> (..., d)."""
    a = x @ W
    return (a / (1 + np.exp(-a)) * (x @ V)) @ W_2


rng = np.random.default_rng(0)
d = 512
x = rng.standard_normal((4, d)) + 3.0                      # (4, d): features with a mean of about 3
centred = x - x.mean(axis=-1, keepdims=True)
gap_centred = np.abs(rms_norm(centred, np.ones(d)) - layer_norm(centred)).max()
gap_raw = np.abs(rms_norm(x, np.ones(d)) - layer_norm(x)).max()
assert gap_centred < 1e-12                                 # on zero-mean rows the two agree

d_ff_relu = 4 * d                                          # the paper's d_ff
d_ff_swiglu = 2 * d_ff_relu // 3                           # 2/3 of it, so three matrices cost two
relu_params = 2 * d * d_ff_relu
swiglu_params = 3 * d * d_ff_swiglu
small = 16
y = swiglu(rng.standard_normal((3, small)), *(rng.standard_normal(s) for s in
           [(small, 8), (small, 8), (8, small)]))
assert y.shape == (3, small)

print(f"RMSNorm - LayerNorm: {gap_centred:.1e} on centred rows, {gap_raw:.2f} on rows of mean 3")
print(f"norm parameters per layer norm: LayerNorm {2 * d}, RMSNorm {d}")
print(f"FFN parameters at d = {d}: ReLU {relu_params:,} (d_ff = {d_ff_relu}),"
      f" SwiGLU {swiglu_params:,} (d_ff = {d_ff_swiglu})")
