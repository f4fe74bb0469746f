# %% compare
import numpy as np

from attn import layer_norm, rms_norm, rms_norm_backward

x = np.array([1.0, 2.0, 3.0, 6.0])  # one token, d_model = 4, mean 3
ln = layer_norm(x)
rms = rms_norm(x)
rms_mean = float(rms.mean())
print("x:        ", x)
print("LayerNorm:", ln.round(3), " mean", round(float(ln.mean()), 3) + 0.0)
print("RMSNorm:  ", rms.round(3), " mean", round(float(rms.mean()), 3))
centred = x - x.mean()
same_when_centred = bool(np.allclose(rms_norm(centred, eps=1e-5), layer_norm(centred, eps=1e-5)))
assert same_when_centred, "on a centred vector RMSNorm and layer norm must agree"

# %% parameters
d_model = 4096  # Llama 2 7B
layer_norm_params = 2 * d_model  # gamma and beta
rms_norm_params = d_model  # gamma only
print(f"per norm at d_model = {d_model}: LayerNorm {layer_norm_params}, RMSNorm {rms_norm_params}")

# %% backward
rng = np.random.default_rng(0)
xs, gamma, d_y = rng.standard_normal((3, 8)), rng.standard_normal(8), rng.standard_normal((3, 8))
dx, grads = rms_norm_backward(d_y, xs, gamma)


def loss(xs):
    """A scalar whose gradient with respect to the output is d_y."""
    return float((rms_norm(xs, gamma) * d_y).sum())


step = 1e-6
numeric = np.zeros_like(xs)
for index in np.ndindex(xs.shape):  # central differences, one entry at a time
    bump = np.zeros_like(xs)
    bump[index] = step
    numeric[index] = (loss(xs + bump) - loss(xs - bump)) / (2 * step)
backward_error = float(np.abs(dx - numeric).max())
assert backward_error < 1e-8, f"rms_norm_backward is {backward_error:.1e} from central differences"
