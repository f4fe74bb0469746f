import numpy as np

from attn import scaled_dot_product_attention

rng = np.random.default_rng(0)
batch, n, d_k = 2, 6, 16
lengths = np.array([6, 3])  # sequence 1 ends in 3 padding tokens
q, k, v = (rng.standard_normal((batch, n, d_k)) for _ in range(3))
real = np.arange(n) < lengths[:, None]  # (batch, n): True for real tokens
mask = real[:, :, None]  # (batch, n, 1)
_, weights = scaled_dot_product_attention(q, k, v, mask=mask, return_weights=True)
on_padding = weights[1, :3, 3:].sum(axis=1)  # real queries of sequence 1
print("weight the real tokens of sequence 1 put on padding:", on_padding.round(3))
print("rows of its padding queries sum to:", weights[1, 3:].sum(axis=1))
