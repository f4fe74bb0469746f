# %% code
import numpy as np
import torch

from attn import apply_rope


def rope(x, base=10000.0):
    """Turn feature pair (2i, 2i + 1) of position p by p * base^(-2i / d_k): x (..., n, d_k) -> (..., n, d_k)."""
    n, d_k = x.shape[-2:]
    theta = base ** (-torch.arange(0, d_k, 2, dtype=torch.float64) / d_k)  # (d_k / 2,)
    angle = torch.arange(n, dtype=torch.float64)[:, None] * theta  # (n, d_k / 2)
    cos, sin = angle.cos().to(x.dtype), angle.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]  # (..., n, d_k / 2) each
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)  # (..., n, d_k)


# The query and key of the NumPy tab, at all 64 positions.
seed, d_k, n = 0, 64, 64
rng = np.random.default_rng(seed)
q, k = rng.standard_normal(d_k), rng.standard_normal(d_k)
q_at = rope(torch.from_numpy(np.tile(q, (n, 1))))  # (n, d_k)
k_at = rope(torch.from_numpy(np.tile(k, (n, 1))))  # (n, d_k)
scores = q_at @ k_at.T  # (n, n)
offset = torch.arange(n)[:, None] - torch.arange(n)  # (n, n): m - p
spread = max(float(scores[offset == o].max() - scores[offset == o].min()) for o in range(-(n - 1), n))
print(f"RoPE: q.k equal, to within 1e-12, for every pair with the same offset: {spread < 1e-12}")

# %% checks
same_64 = np.allclose(q_at.numpy(), apply_rope(np.tile(q, (n, 1))), rtol=0, atol=1e-12)
x32 = rng.standard_normal((2, 4, n, d_k)).astype(np.float32)  # (batch, h, n, d_k)
same_32 = np.allclose(rope(torch.from_numpy(x32)).numpy(), apply_rope(x32), rtol=0, atol=1e-5)
assert same_64, "the PyTorch RoPE must equal attn.apply_rope in float64, within 1e-12"
assert same_32, "the PyTorch RoPE must equal attn.apply_rope in float32, within 1e-5"
assert spread < 1e-12, "pairs with the same offset must score the same"
