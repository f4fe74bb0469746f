import numpy as np

from attn import init_multi_head, multi_head_attention

n, d_model = 8, 8
h = d_model  # eight heads of width d_k = 1
rng = np.random.default_rng(0)
X = rng.standard_normal((n, d_model))  # (n, d_model)
params = init_multi_head(rng, d_model)

_, weights = multi_head_attention(X, X, params, h, return_weights=True)  # (h, n, n)
favourites = weights.argmax(axis=-1)  # (h, n): each query's favourite key, per head
distinct = [len(set(row)) for row in favourites.tolist()]  # per head

# With d_k = 1 a score is q * k_j: for q > 0 it grows with k_j, for q < 0 it shrinks.
k = (X @ params["W_k"]).T  # (h, n): head i's scalar keys
q = (X @ params["W_q"]).T  # (h, n): head i's scalar queries
predicted = np.where(q > 0, k.argmax(axis=1, keepdims=True), k.argmin(axis=1, keepdims=True))  # (h, n)
as_predicted = bool((favourites == predicted).all())
assert as_predicted, "with d_k = 1 every favourite is the largest key (q > 0) or the smallest (q < 0)"

print(f"distinct favourite keys per head (of {n} queries): {distinct}")
