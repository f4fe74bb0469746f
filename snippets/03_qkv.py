# %% project
import numpy as np

from attn import attention_head, init_attention, scaled_dot_product_attention, softmax

seed = 1
n, d_model = 4, 8  # four tokens, each an 8-wide vector
d_k = d_v = 4  # queries, keys and values are 4 wide

rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d_model))  # (n, d_model): the input tokens, unit variance
scale = 1 / np.sqrt(d_model)  # each weight gets variance 1 / d_model
W_q = rng.standard_normal((d_model, d_k)) * scale  # drawn first,
W_k = rng.standard_normal((d_model, d_k)) * scale  # second,
W_v = rng.standard_normal((d_model, d_v)) * scale  # and third

Q = X @ W_q  # (n, d_k): what each token looks for
K = X @ W_k  # (n, d_k): what each token offers to be found by
V = X @ W_v  # (n, d_v): what each token hands over when it is picked
print("X (n, d_model):", X.shape)
print("Q, K (n, d_k):", Q.shape, K.shape)
print("V (n, d_v):", V.shape)

# %% attend
scores = Q @ K.T  # (n, n): one raw score per (query token, key token) pair
out, weights = scaled_dot_product_attention(Q, K, V, return_weights=True)  # (n, d_v), (n, n)

print("scores (n, n):\n", scores.round(2))
print("weights (n, n):\n", weights.round(3))
print("out (n, d_v):\n", out.round(3))

# %% checks
# The library agrees with the formula written out, and with "project, then attend" as one head.
assert np.allclose(weights, softmax(scores / np.sqrt(d_k)))
assert np.allclose(out, weights @ V)
assert np.allclose(out, attention_head(X, X, {"W_q": W_q, "W_k": W_k, "W_v": W_v}))
assert np.allclose(weights.sum(axis=-1), 1)  # every row of weights sums to 1
score_min, score_max = scores.min(), scores.max()

# The same draws without the scale: plain standard normals. Q and K are sqrt(d_model) times
# larger, so every score is d_model = 8 times larger.
std_scores = d_model * scores  # (n, n)
std_score_min, std_score_max = std_scores.min(), std_scores.max()
std_weights = softmax(std_scores / np.sqrt(d_k))  # (n, n)
assert std_weights[2].argmax() == std_weights[3].argmax() == 3  # both rows pick token 3
assert std_weights[2:, 3].min() > 0.99  # essentially all of both rows' weight

# Other seeds: the variance of a query entry and of a scaled score, and a row's largest
# weight, with the scale and without it.
n_seeds = 1000
q_var, score_var, largest, largest_std = [], [], [], []
for other in range(2, 2 + n_seeds):
    g = np.random.default_rng(other)
    x = g.standard_normal((n, d_model))  # (n, d_model)
    q, k = x @ g.standard_normal((d_model, d_k)) * scale, x @ g.standard_normal((d_model, d_k)) * scale
    s = q @ k.T / np.sqrt(d_k)  # (n, n): scaled scores
    q_var.append(np.mean(q**2))
    score_var.append(np.mean(s**2))
    largest.append(softmax(s).max(axis=-1).mean())
    largest_std.append(softmax(d_model * s).max(axis=-1).mean())
q_var, score_var = np.mean(q_var), np.mean(score_var)
largest, largest_std = np.mean(largest), np.mean(largest_std)

# init_attention, which the library's models start from, uses Glorot and Bengio's variance.
glorot_var = 2 / (d_model + d_k)  # 1/6 here
glorot_q_var = d_model * glorot_var  # 4/3: a query entry's variance with unit-variance inputs
fresh = init_attention(np.random.default_rng(seed), d_model, d_k)["W_q"]  # (d_model, d_k)
assert np.allclose(fresh, np.random.default_rng(seed).standard_normal((d_model, d_k)) * np.sqrt(glorot_var))

print(f"standard normals: scores from {std_score_min:.2f} to {std_score_max:.2f}")
print(f"standard normals: rows 2 and 3 give token 3 {std_weights[2, 3]:.4f} and {std_weights[3, 3]:.4f}")
print(f"{n_seeds} seeds: query entry variance {q_var:.2f}, scaled score variance {score_var:.2f}")
print(f"largest weight in a row, mean: {largest:.2f}; standard normals {largest_std:.2f}")
print(f"init_attention: weight variance {glorot_var:.3f}, query entry variance {glorot_q_var:.2f}")
