# %% code
import numpy as np
import torch
import torch.nn.functional as F

from attn import init_encoder_layer, pre_norm_layer, pre_norm_stack


def self_attention(x, W_q, W_k, W_v, W_o, h):
    """Multi-head self-attention: x (..., n, d_model) -> (..., n, d_model)."""
    q, k, v = ((x @ w).unflatten(-1, (h, -1)).transpose(-3, -2) for w in (W_q, W_k, W_v))  # (..., h, n, d_k)
    return F.scaled_dot_product_attention(q, k, v).transpose(-3, -2).flatten(-2) @ W_o  # (..., n, d_model)


def pre_norm_block(x, p, h):
    """x + Attention(LN(x)), then + FFN(LN(that)): x (..., n, d_model) -> (..., n, d_model)."""
    width = x.shape[-1:]
    x = x + self_attention(F.layer_norm(x, width, p["gamma1"], p["beta1"], eps=1e-5), *p["attn"], h)
    hidden = F.relu(F.layer_norm(x, width, p["gamma2"], p["beta2"], eps=1e-5) @ p["W_1"] + p["b_1"])  # (..., n, d_ff)
    return x + hidden @ p["W_2"] + p["b_2"]


# %% checks
def tensors(layer, dtype):
    """attn's parameters of one layer as PyTorch tensors of ``dtype``."""
    t = {key: torch.tensor(value, dtype=dtype) for key, value in layer["ffn"].items()}
    t["attn"] = [torch.tensor(layer["self_attn"][name], dtype=dtype) for name in ("W_q", "W_k", "W_v", "W_o")]
    for i in (1, 2):
        t[f"gamma{i}"], t[f"beta{i}"] = (torch.tensor(layer[f"norm{i}"][key], dtype=dtype) for key in ("gamma", "beta"))
    return t


# The input and the 64 random layers of the NumPy tab.
seed, n, d_model, h, d_ff = 0, 8, 16, 4, 64
depths = [1, 4, 16, 64]
rng = np.random.default_rng(seed)
x = rng.standard_normal((n, d_model))  # (n, d_model)
layers = [init_encoder_layer(rng, d_model, d_ff) for _ in range(depths[-1])]

y, stds = torch.from_numpy(x), []
for N, layer in enumerate(layers, start=1):
    y = pre_norm_block(y, tensors(layer, torch.float64), h)  # (n, d_model)
    if N in depths:
        stds.append(float(y.std(dim=-1, correction=0).mean()))
print("pre-norm, no final norm, N =", depths, ":", [round(s, 2) for s in stds])

same_64 = np.allclose(y.numpy(), pre_norm_stack(x, layers, h, final_norm=None), rtol=0, atol=1e-12)

x32 = x.astype(np.float32)
layer32 = {part: {key: w.astype(np.float32) for key, w in params.items()} for part, params in layers[0].items()}
block_32 = pre_norm_block(torch.from_numpy(x32), tensors(layers[0], torch.float32), h)  # one block, float32
same_32 = np.allclose(block_32.numpy(), pre_norm_layer(x32, layer32, h), rtol=0, atol=1e-5)
assert same_64, "the PyTorch stack must equal attn.pre_norm_stack in float64 over 64 layers, within 1e-12"
assert same_32, "the PyTorch layer must equal attn.pre_norm_layer in float32, within 1e-5"
