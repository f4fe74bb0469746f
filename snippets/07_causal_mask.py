# %% setup
import numpy as np

from attn import causal_mask, scaled_dot_product_attention

# The example of page 03: same seed, same draws in the same order, same scale.
seed, n, d_model, d_k, d_v = 1, 4, 8, 4, 4
rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d_model))  # (n, d_model)
scale = 1 / np.sqrt(d_model)  # each weight gets variance 1 / d_model
W_q = rng.standard_normal((d_model, d_k)) * scale  # first,
W_k = rng.standard_normal((d_model, d_k)) * scale  # second,
W_v = rng.standard_normal((d_model, d_v)) * scale  # third
Q, K, V = X @ W_q, X @ W_k, X @ W_v  # (n, d_k), (n, d_k), (n, d_v)

# %% mask
# (n, n) bool: True where key j <= query i.
mask = causal_mask(n)

# By hand: scores above the diagonal become -inf,
# and exp(-inf) is exactly 0.
scores = Q @ K.T / np.sqrt(d_k)  # (n, n)
masked_scores = np.where(mask, scores, -np.inf)  # (n, n)

out, weights = scaled_dot_product_attention(Q, K, V, mask=mask, return_weights=True)

print("mask (1 = may attend):\n", mask.astype(int))
print("masked scores:\n", masked_scores.round(2))
print("weights:\n", weights.round(3))

# %% checks
future = ~mask  # the entries the mask removes
n_future = int(future.sum())  # n (n - 1) / 2 of them
all_future_exactly_zero = bool(np.all(weights[future] == 0.0))
assert all_future_exactly_zero, "a masked key must get a weight of exactly 0"
row_sums = weights.sum(axis=-1)
last_row_all_positive = bool((weights[-1] > 0).all())  # the last token: nothing is masked
_, unmasked_weights = scaled_dot_product_attention(Q, K, V, return_weights=True)
last_row_unchanged = bool(np.allclose(weights[-1], unmasked_weights[-1]))
assert last_row_all_positive and last_row_unchanged, "the mask hides nothing from the last token"
kept = unmasked_weights[2, :3]  # (3,): token 2's weights, without the mask, on the keys the mask leaves it
assert np.allclose(weights[2, :3], kept / kept.sum()), "the kept weights keep their ratios and sum to 1"
assert weights[2].argmax() == 0 != unmasked_weights[2].argmax()  # the mask changes token 2's favourite

print("future entries:", n_future, " all exactly 0.0:", all_future_exactly_zero)
print("row sums:", row_sums.round(12))
