import numpy as np

from attn import softmax

# Attention dropout: zero each weight with probability p after the softmax, scale the rest by
# 1 / (1 - p) so that the expected weight is unchanged.
rng = np.random.default_rng(0)
p, n, draws = 0.1, 8, 20_000
w = softmax(rng.standard_normal(n))  # (n,): one row of weights
keep = rng.random((draws, n)) >= p  # (draws, n)
dropped = w * keep / (1 - p)  # (draws, n)
sums = dropped.sum(axis=1)  # (draws,): a row no longer sums to 1
low, high = sums.min(), sums.max()
mean_gap = np.abs(dropped.mean(axis=0) - w).max()  # but its expectation is w
assert mean_gap < 0.01
assert np.isclose(high, 1 / (1 - p)), "some draw dropped nothing: the largest possible sum"
print(f"p = {p}, one row of {n} weights, {draws:,} draws:", end=" ")
print(f"row sums from {low:.3f} to {high:.3f}, mean {sums.mean():.3f}")
print(f"largest |mean weight - weight|: {mean_gap:.4f}")
