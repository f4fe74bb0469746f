import numpy as np

from attn import ntk_frequencies, rope_frequencies

d_k, s = 128, 8
ratio = ntk_frequencies(d_k, s) / rope_frequencies(d_k)  # (d_k / 2,): how much each pair slows
by_hand = s ** (-np.arange(d_k // 2) / (d_k // 2 - 1))  # s^(-2i / (d_k - 2))
fastest, slowest = float(ratio[0]), float(ratio[-1])
matches = bool(np.allclose(ratio, by_hand, rtol=1e-12))
print(f"d_k = {d_k}, s = {s}: fastest pair x {fastest}, slowest pair x {slowest:.6f} (1 / s = {1 / s})")
assert matches, "pair i must be slowed by s^(-2i / (d_k - 2))"
