# %% code
import numpy as np
import torch
import torch.nn.functional as F

from attn import causal_mask, init_multi_head, multi_head_attention


def multi_head(x, W_q, W_k, W_v, W_o, h, causal=False):
    """Multi-head self-attention: x (..., n, d_model) -> out (..., n, d_model), weights (..., h, n, n)."""
    n, d_model = x.shape[-2:]
    d_k = d_model // h

    def split(t):  # (..., n, d_model) -> (..., h, n, d_k)
        return t.unflatten(-1, (h, d_k)).transpose(-3, -2)

    q, k, v = split(x @ W_q), split(x @ W_k), split(x @ W_v)  # (..., h, n, d_k) each
    scores = q @ k.transpose(-2, -1) / d_k**0.5  # (..., h, n, n)
    if causal:
        future = torch.ones(n, n, dtype=torch.bool).triu(1)  # (n, n): True where key j > query i
        scores = scores.masked_fill(future, float("-inf"))
    weights = scores.softmax(dim=-1)  # (..., h, n, n)
    concat = (weights @ v).transpose(-3, -2).flatten(-2)  # (..., n, h * d_k) = (..., n, d_model)
    return concat @ W_o, weights


# The tokens and weights of the NumPy tab: same seed, same draws.
seed, n, d_model, h = 1, 4, 8, 2
rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d_model))  # (n, d_model)
params = init_multi_head(rng, d_model)  # W_q, W_k, W_v, W_o: (d_model, d_model) each
W = [torch.from_numpy(params[name]) for name in ("W_q", "W_k", "W_v", "W_o")]

out, weights = multi_head(torch.from_numpy(X), *W, h)
print("head 0 weights:\n", weights[0].numpy().round(3))

# %% checks
out_causal, _ = multi_head(torch.from_numpy(X), *W, h, causal=True)
same_64 = np.allclose(out.numpy(), multi_head_attention(X, X, params, h), rtol=0, atol=1e-12) and np.allclose(
    out_causal.numpy(), multi_head_attention(X, X, params, h, mask=causal_mask(n)), rtol=0, atol=1e-12
)

X32, params32 = X.astype(np.float32), {name: w.astype(np.float32) for name, w in params.items()}
out_32, _ = multi_head(torch.from_numpy(X32), *(w.float() for w in W), h, causal=True)
library_32 = multi_head_attention(X32, X32, params32, h, mask=causal_mask(n))  # (n, d_model), float32
same_32 = np.allclose(out_32.numpy(), library_32, rtol=0, atol=1e-5)

# PyTorch's kernel for the middle step, and its own module with the same matrices loaded.
q, k, v = (
    torch.from_numpy(X @ params[name]).unflatten(-1, (h, d_model // h)).transpose(0, 1)
    for name in ("W_q", "W_k", "W_v")
)  # (h, n, d_k) each
heads = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (h, n, d_k)
via_kernel = heads.transpose(0, 1).flatten(-2) @ W[3]  # (n, d_model)
module = torch.nn.MultiheadAttention(d_model, h, bias=False, batch_first=True, dtype=torch.float64)
with torch.no_grad():
    module.in_proj_weight.copy_(torch.cat([W[0].T, W[1].T, W[2].T]))  # PyTorch stores x @ W as W.T
    module.out_proj.weight.copy_(W[3].T)
    future = torch.ones(n, n, dtype=torch.bool).triu(1)  # here True means "may NOT attend"
    via_module, _ = module(*[torch.from_numpy(X)] * 3, attn_mask=future, need_weights=False)
same_builtin = torch.allclose(out_causal, via_kernel, rtol=0, atol=1e-12) and torch.allclose(
    out_causal, via_module, rtol=0, atol=1e-12
)
assert same_64, "PyTorch by hand matches attn.multi_head_attention in float64, within 1e-12"
assert same_32, "and in float32, within 1e-5"
assert same_builtin, "F.scaled_dot_product_attention and nn.MultiheadAttention match it, within 1e-12"
