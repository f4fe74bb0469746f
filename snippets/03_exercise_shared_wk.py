import numpy as np

from attn import scaled_dot_product_attention

n, d_model, d_k = 6, 8, 4
rng = np.random.default_rng(3)
X = rng.standard_normal((n, d_model))  # (n, d_model)
W = rng.standard_normal((d_model, d_k))  # one matrix for both W^Q and W^K
W_v = rng.standard_normal((d_model, d_k))

Q = K = X @ W  # (n, d_k): the queries are the keys
scores = Q @ K.T  # (n, n) = X W W^T X^T
_, weights = scaled_dot_product_attention(Q, K, X @ W_v, return_weights=True)  # (n, n)

scores_symmetric = bool(np.allclose(scores, scores.T, rtol=0, atol=1e-12))
assert scores_symmetric, "a shared W^Q = W^K makes the scores symmetric"
weights_symmetric = bool(np.allclose(weights, weights.T, rtol=0, atol=1e-12))
assert not weights_symmetric, "softmax normalises each row by its own sum"
largest_asymmetry = np.abs(weights - weights.T).max()
diagonal_nonnegative = bool((np.diag(scores) >= 0).all())  # q_i . q_i = |q_i|^2
assert diagonal_nonnegative, "a self-score q_i . q_i is never negative"
favourite = weights.argmax(axis=1)  # (n,)
self_favourites = int((favourite == np.arange(n)).sum())

print(f"largest |w_ij - w_ji|: {largest_asymmetry:.3f}")
print(f"tokens whose largest weight is on themselves: {self_favourites} of {n}")
