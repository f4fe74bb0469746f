import numpy as np

from attn import attention_head, count_parameters, init_attention

d_model, d_k, n = 512, 64, 10  # the base model's width and head width; ten tokens
rng = np.random.default_rng(0)
params = init_attention(rng, d_model, d_k)  # W_q, W_k, W_v: each (d_model, d_k)
X = rng.standard_normal((n, d_model))  # (n, d_model)

W_q = params["W_q"]  # (d_model, d_k)
Q, K, V = X @ W_q, X @ params["W_k"], X @ params["W_v"]  # each (n, d_k)
K_T = K.T  # (d_k, n)
scores = Q @ K_T  # (n, n)
out, weights = attention_head(X, X, params, return_weights=True)  # (n, d_v), (n, n)
weights_count = count_parameters(params)
by_formula = 3 * d_model * d_k
assert weights_count == by_formula, "W_q, W_k and W_v hold 3 * d_model * d_k weights"

print(f"W_q {W_q.shape}  Q {Q.shape}  K^T {K_T.shape}  scores {scores.shape}")
print(f"weights {weights.shape}  V {V.shape}  out {out.shape}")
print(f"parameters in W_q, W_k, W_v: {weights_count} (3 * d_model * d_k = {by_formula})")
