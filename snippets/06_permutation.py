# %% setup
import numpy as np

from attn import causal_mask, multi_head_attention

seed = 2
rng = np.random.default_rng(seed)
n, d_model, h = 4, 8, 1
words = ["dog", "bites", "man", "."]
X = rng.standard_normal((n, d_model))  # (n, d_model): embeddings, no position
params = {name: rng.standard_normal((d_model, d_model)) for name in ("W_q", "W_k", "W_v", "W_o")}  # (d_model, d_model)

# %% shuffle
perm = np.array([2, 1, 0, 3])  # swap rows 0 and 2
print("shuffled:", " ".join(words[i] for i in perm))

out = multi_head_attention(X, X, params, h)  # (n, d_model)
out_shuffled = multi_head_attention(X[perm], X[perm], params, h)  # (n, d_model)

# Shuffled input -> the same output rows, shuffled the same way?
equivariant = np.allclose(out_shuffled, out[perm])
print("attention(X[perm]) == attention(X)[perm]:", equivariant)

# %% checks
largest_gap = np.abs(out_shuffled - out[perm]).max()  # rounding: sums taken in another order
only_rounding = bool(largest_gap < 1e-12)
assert equivariant and only_rounding, "shuffled input, shuffled output: equal up to rounding below 1e-12"
bites_unchanged = np.allclose(out_shuffled[1], out[1])
assert bites_unchanged, "'bites' did not move, and gets the same vector in both sentences"

# A causal mask depends on position: token i sees tokens 0..i. The symmetry is gone.
mask = causal_mask(n)
masked = multi_head_attention(X, X, params, h, mask)
masked_shuffled = multi_head_attention(X[perm], X[perm], params, h, mask)
equivariant_with_mask = np.allclose(masked_shuffled, masked[perm])
assert not equivariant_with_mask, "a causal mask depends on position: shuffling no longer just reorders"
