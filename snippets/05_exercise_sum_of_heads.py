import numpy as np

from attn import init_multi_head, merge_heads, multi_head_attention, scaled_dot_product_attention, split_heads

n, d_model, h = 4, 8, 2
d_v = d_model // h
rng = np.random.default_rng(1)
X = rng.standard_normal((n, d_model))  # (n, d_model)
params = init_multi_head(rng, d_model)  # W_q, W_k, W_v, W_o: each (d_model, d_model)

q = split_heads(X @ params["W_q"], h)  # (h, n, d_k)
k = split_heads(X @ params["W_k"], h)  # (h, n, d_k)
v = split_heads(X @ params["W_v"], h)  # (h, n, d_v)
heads = scaled_dot_product_attention(q, k, v)  # (h, n, d_v)

concat_then_project = merge_heads(heads) @ params["W_o"]  # (n, d_model)
W_o_blocks = params["W_o"].reshape(h, d_v, d_model)  # (h, d_v, d_model): block i = rows of head i
per_head = heads @ W_o_blocks  # (h, n, d_model): each head's own contribution
sum_of_heads = per_head.sum(axis=0)  # (n, d_model)

library = multi_head_attention(X, X, params, h)
gap = np.abs(sum_of_heads - concat_then_project).max()
same = bool(gap < 1e-12)
assert same, "the sum over heads is the concatenation times W_o (within 1e-12)"
same_as_library = bool(np.abs(sum_of_heads - library).max() < 1e-12)
assert same_as_library, "the sum over heads is attn.multi_head_attention (within 1e-12)"

print(f"W_o as {h} blocks: {W_o_blocks.shape}; each head's contribution: {per_head.shape}")
