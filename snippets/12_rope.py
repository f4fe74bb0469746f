# %% scores
import numpy as np

from attn import apply_rope, positional_encoding

seed = 0
d_k, n = 64, 64  # one head's width; positions 0 .. 63
rng = np.random.default_rng(seed)
q, k = rng.standard_normal(d_k), rng.standard_normal(d_k)  # one query and one key, fixed content

# The same query at every position m and the same key at every position n.
q_at = apply_rope(np.tile(q, (n, 1)))  # (n, d_k): row m is q rotated for position m
k_at = apply_rope(np.tile(k, (n, 1)))  # (n, d_k)
scores = q_at @ k_at.T  # (n, n): scores[m, p] = rope(q, m) . rope(k, p)
pe = positional_encoding(n, d_k)  # (n, d_k): the sinusoidal alternative, added
added = (q + pe) @ (k + pe).T  # (n, n)

offset = np.arange(n)[:, None] - np.arange(n)  # (n, n): m - p
spread_rope = max(np.ptp(scores[offset == o]) for o in range(-(n - 1), n))
spread_added = max(np.ptp(added[offset == o]) for o in range(-(n - 1), n))
n_pairs, n_offsets = n * n, 2 * n - 1

print(f"{n_pairs} pairs of positions, {n_offsets} offsets")
print(f"RoPE: q.k equal, to within 1e-12, for every pair with the same offset: {spread_rope < 1e-12}")
print(f"sinusoids added instead: largest spread among pairs with the same offset: {spread_added:.1f}")
assert spread_rope < 1e-12, "with RoPE, pairs with the same offset must score the same"

# %% angles
lengths_kept = np.allclose(np.linalg.norm(q_at, axis=1), np.linalg.norm(q))
# The angles are the sinusoidal encoding's: rotating (1, 0) gives (cos, sin) of PE's angle.
ones = np.tile([1.0, 0.0], (n, d_k // 2))  # (n, d_k): 1, 0, 1, 0, ...
turned = apply_rope(ones)  # (n, d_k)
same_angles = np.allclose(turned[:, 0::2], pe[:, 1::2]) and np.allclose(turned[:, 1::2], pe[:, 0::2])
assert lengths_kept, "the rotation must keep every length"
assert same_angles, "RoPE's angles must be those of positional_encoding"
