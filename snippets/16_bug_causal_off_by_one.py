import numpy as np

from attn import scaled_dot_product_attention

rng = np.random.default_rng(0)
n, d_k = 6, 16
q, k, v = (rng.standard_normal((n, d_k)) for _ in range(3))
mask = np.tril(np.ones((n, n), dtype=bool), k=1)  # (n, n): True = may attend
_, weights = scaled_dot_product_attention(q, k, v, mask=mask, return_weights=True)
future = np.triu(np.ones((n, n), dtype=bool), k=1)  # key j > query i
on_future = (weights * future).sum(axis=1)  # (n,): weight each position puts ahead
print(
    f"weight on the future: position 0 {on_future[0]:.3f}, mean over positions 0 to {n - 2} {on_future[:-1].mean():.3f}"
)
