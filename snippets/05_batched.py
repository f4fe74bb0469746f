import numpy as np

from attn import init_multi_head, merge_heads, multi_head_attention, scaled_dot_product_attention, softmax, split_heads

seed = 1
n, d_model, h = 4, 8, 2
d_k = d_v = d_model // h

rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d_model))  # (n, d_model): the four tokens of section 03
params = init_multi_head(rng, d_model)  # W_q, W_k, W_v, W_o: each (d_model, d_model)

# Project once at full width: every head's queries sit side by side in the columns.
Q = X @ params["W_q"]  # (n, d_model)
K = X @ params["W_k"]  # (n, d_model)
V = X @ params["W_v"]  # (n, d_model)

# Cut the columns into h heads and put the head axis first.
Q_h, K_h, V_h = split_heads(Q, h), split_heads(K, h), split_heads(V, h)  # (h, n, d_k)

# One batched product handles every head: no loop.
scores = Q_h @ K_h.swapaxes(-1, -2) / np.sqrt(d_k)  # (h, n, n)
weights = softmax(scores)  # (h, n, n)
heads = weights @ V_h  # (h, n, d_v)
concat = merge_heads(heads)  # (n, h * d_v) = (n, d_model)
out = concat @ params["W_o"]  # (n, d_model)

library_out, library_weights = multi_head_attention(X, X, params, h, return_weights=True)

# The same thing the slow way: one head at a time, on its own slice of columns.
per_head = []
for i in range(h):
    cols = slice(i * d_k, (i + 1) * d_k)
    q, k, v = Q[:, cols], K[:, cols], V[:, cols]  # (n, d_k) each
    per_head.append(scaled_dot_product_attention(q, k, v))
loop_out = np.concatenate(per_head, axis=-1) @ params["W_o"]  # (n, d_model)

assert np.allclose(out, library_out) and np.allclose(weights, library_weights)  # by hand == the library
assert np.allclose(library_out, loop_out)  # batched == one head at a time

print("projections Q, K, V:", Q.shape, K.shape, V.shape)
print("after split_heads:  ", Q_h.shape)
print("scores:             ", scores.shape)
print("heads:              ", heads.shape)
print("concatenated:       ", concat.shape)
print("out:                ", out.shape)

favourite = weights.argmax(axis=-1)  # (h, n): the key each token weights most, per head
print("head 0 weights:\n", weights[0].round(3))
print("head 1 weights:\n", weights[1].round(3))
print("favourite key per token, head 0:", favourite[0], " head 1:", favourite[1])
