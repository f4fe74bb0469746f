# %% code
import numpy as np
import torch
import torch.nn.functional as F

from attn import causal_mask, scaled_dot_product_attention


def attention(q, k, v, mask=None):
    """softmax(q k^T / sqrt(d_k)) v -> (..., n_q, d_v).

    mask: bool (..., n_q, n_k), True = may attend.
    """
    # (..., n_q, n_k)
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        # Before the softmax: weight exactly 0.
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # (..., n_q, n_k)
    return weights @ v, weights


# The example of page 03 again: same seed, same draws,
# same order, variance 1 / d_model.
seed, n, d_model, d_k, d_v = 1, 4, 8, 4, 4
rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d_model))  # (n, d_model)
W_q, W_k, W_v = (rng.standard_normal((d_model, d)) / np.sqrt(d_model) for d in (d_k, d_k, d_v))
Q, K, V = X @ W_q, X @ W_k, X @ W_v  # (n, d_k), (n, d_k), (n, d_v)
mask = causal_mask(n)  # (n, n), True where key j <= query i

tensors = map(torch.from_numpy, (Q, K, V, mask))
out, weights = attention(*tensors)
print("weights:\n", weights.numpy().round(3))

# %% checks
reference = scaled_dot_product_attention(Q, K, V, mask=mask)  # attn, float64
same_64 = np.allclose(out.numpy(), reference, rtol=0, atol=1e-12)

# float32: the same inputs rounded once, against attn given the same float32 arrays.
Q32, K32, V32 = (a.astype(np.float32) for a in (Q, K, V))
out_32, _ = attention(*map(torch.from_numpy, (Q32, K32, V32)), torch.from_numpy(mask))
same_32 = np.allclose(out_32.numpy(), scaled_dot_product_attention(Q32, K32, V32, mask=mask), rtol=0, atol=1e-5)

# PyTorch's own kernel: a boolean attn_mask means "may attend", as in attn.
builtin = F.scaled_dot_product_attention(*map(torch.from_numpy, (Q, K, V)), attn_mask=torch.from_numpy(mask))
causal = F.scaled_dot_product_attention(*map(torch.from_numpy, (Q, K, V)), is_causal=True)
same_builtin = torch.allclose(out, builtin, rtol=0, atol=1e-12) and torch.allclose(out, causal, rtol=0, atol=1e-12)
assert same_64, "PyTorch, float64: the same output as attn (within 1e-12)"
assert same_32, "PyTorch, float32: the same output as attn in float32 (within 1e-5)"
assert same_builtin, "F.scaled_dot_product_attention gives the same output (within 1e-12)"
