# %% bias
import math

import numpy as np

from attn import alibi_attention, alibi_bias, alibi_slopes, softmax

slopes_8 = alibi_slopes(8)  # (8,)
n = 6
bias = alibi_bias(n, slopes_8)  # (8, n, n): -m (i - j)
lower = np.tri(n, dtype=bool)  # the entries a causal model uses, j <= i
step = np.diff(bias, axis=-1)  # (8, n, n - 1): change per key moved right
linear = all(np.allclose(step[head][lower[:, 1:]], slopes_8[head]) for head in range(8))

# How far back a head still looks: the distance at which the bias alone is -10, a factor e^-10.
reach = 10 / slopes_8  # (8,)

print(f"slopes, 8 heads: {slopes_8}")
print(f"bias of head 0 (slope 1/2), 6 positions:\n {np.where(lower, bias[0], np.nan)}")
assert linear, "each step back must lower the bias by the head's slope"
print(f"distance at which the bias reaches -10: {reach}")

# %% general
slopes_16 = alibi_slopes(16)  # (16,)
ratio_16 = slopes_16[1:] / slopes_16[:-1]  # constant for a geometric sequence

# alibi_attention against the formula written out, on random queries, keys and values.
seed = 0
rng = np.random.default_rng(seed)
q, k, v = (rng.standard_normal((8, n, 4)) for _ in range(3))  # (h, n, d_k) each
scores = q @ k.swapaxes(-1, -2) / math.sqrt(4) + bias  # (8, n, n)
by_hand = softmax(np.where(lower, scores, -np.inf)) @ v  # (8, n, 4)
same = np.allclose(alibi_attention(q, k, v, slopes_8), by_hand, rtol=0, atol=1e-12)

assert np.allclose(ratio_16, ratio_16[0]), "the 16 slopes must have one ratio throughout"
assert same, "alibi_attention must equal the formula"
print(f"16 heads: first {slopes_16[0]:.4f}, ratio {ratio_16[0]:.4f} throughout")
