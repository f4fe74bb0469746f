# %% relative
import math

import numpy as np

from attn import relative_attention, relative_offsets

seed = 0
n, d_k, clip = 6, 4, 2  # offsets beyond 2 in either direction share a row
rng = np.random.default_rng(seed)
q, k, v = (rng.standard_normal((n, d_k)) for _ in range(3))  # (n, d_k) each
w_k = rng.standard_normal((2 * clip + 1, d_k))  # (2 clip + 1, d_k): a^K by clipped offset
w_v = rng.standard_normal((2 * clip + 1, d_k))  # (2 clip + 1, d_v): a^V by clipped offset

offsets = relative_offsets(n, n, clip)  # (n, n): clip(j - i)
out = relative_attention(q, k, v, w_k, w_v)  # (n, d_k)

# Six copies of one token: the only thing that differs between keys is the offset.
same = np.tile(q[:1], (n, 1))  # (n, d_k)
_, weights = relative_attention(same, same, same, w_k, return_weights=True)

print(f"clipped offsets j - i:\n {offsets}")
print(f"identical tokens, weights of the last query: {weights[-1].round(3)}")

# %% loop
# Shaw et al.'s equations 4 and 3, one pair at a time.
loop = np.zeros((n, d_k))
for i in range(n):
    e = [q[i] @ (k[j] + w_k[offsets[i, j] + clip]) / math.sqrt(d_k) for j in range(n)]
    alpha = np.exp(e - np.max(e)) / np.exp(e - np.max(e)).sum()
    loop[i] = sum(alpha[j] * (v[j] + w_v[offsets[i, j] + clip]) for j in range(n))
assert np.allclose(out, loop, rtol=0, atol=1e-12), "the matrix form must equal the loop over pairs"
