import numpy as np

from attn import attention_head, scaled_dot_product_attention, softmax

seed = 1
n, d_model = 4, 8  # four tokens, each an 8-wide vector
d_k = d_v = 4  # queries, keys and values are 4 wide

rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d_model))  # (n, d_model): the input tokens
W_q = rng.standard_normal((d_model, d_k))  # drawn first,
W_k = rng.standard_normal((d_model, d_k))  # second,
W_v = rng.standard_normal((d_model, d_v))  # and third: the order of the draws fixes every number

Q = X @ W_q  # (n, d_k): what each token looks for
K = X @ W_k  # (n, d_k): what each token offers to be found by
V = X @ W_v  # (n, d_v): what each token hands over when it is picked

scores = Q @ K.T  # (n, n): one raw score per (query token, key token) pair
score_min, score_max = scores.min(), scores.max()
out, weights = scaled_dot_product_attention(Q, K, V, return_weights=True)  # (n, d_v), (n, n)

# The library agrees with the formula written out, and with "project, then attend" as one head.
assert np.allclose(weights, softmax(scores / np.sqrt(d_k)))
assert np.allclose(out, weights @ V)
assert np.allclose(out, attention_head(X, X, {"W_q": W_q, "W_k": W_k, "W_v": W_v}))
assert np.allclose(weights.sum(axis=-1), 1)  # every row of weights sums to 1

print("X:", X.shape, " Q:", Q.shape, " K:", K.shape, " V:", V.shape)
print("scores:\n", scores.round(2))
print("smallest and largest score:", round(score_min, 2), round(score_max, 2))
print("weights:\n", weights.round(3))
print("out:\n", out.round(3))
print("V[3]:", V[3].round(3))
