import numpy as np

from attn import multi_head_attention, positional_encoding

# 06_permutation.py again: same seed, words, projections and permutation.
seed = 2
rng = np.random.default_rng(seed)
n, d_model, h = 4, 8, 1
X = rng.standard_normal((n, d_model))  # (n, d_model)
params = {name: rng.standard_normal((d_model, d_model)) for name in ("W_q", "W_k", "W_v", "W_o")}
perm = np.array([2, 1, 0, 3])  # "dog bites man ." -> "man bites dog ."

pe = positional_encoding(n, d_model)  # (n, d_model): row p is position p
out = multi_head_attention(X + pe, X + pe, params, h)
shuffled = X[perm] + pe  # the words move, the positions stay
out_shuffled = multi_head_attention(shuffled, shuffled, params, h)

equivariant = np.allclose(out_shuffled, out[perm])
assert not equivariant, "with positions added, the shuffled sentence no longer gives the shuffled output"
largest_gap = np.abs(out_shuffled - out[perm]).max()
print("largest difference between the two:", largest_gap.round(2))
