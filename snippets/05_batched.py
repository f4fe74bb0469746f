# %% setup
import numpy as np

from attn import init_multi_head, merge_heads, multi_head_attention, scaled_dot_product_attention, softmax, split_heads

seed = 1
n, d_model, h = 4, 8, 2
d_k = d_v = d_model // h
rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d_model))  # (n, d_model): the four tokens of page 03
params = init_multi_head(rng, d_model)  # W_q, W_k, W_v, W_o: each (d_model, d_model)
W_q, W_k, W_v, W_o = (params[name] for name in ("W_q", "W_k", "W_v", "W_o"))

# %% scratch
# Every head's columns side by side.
Q, K, V = X @ W_q, X @ W_k, X @ W_v  # (n, d_model) each

# Split: cut the columns into h blocks of d_k,
# then put the head axis first: (h, n, d_k) each.
Q_h, K_h, V_h = (M.reshape(n, h, d_k).transpose(1, 0, 2) for M in (Q, K, V))

# Attend: one batched product scores every head,
# no loop over heads.
scores = Q_h @ K_h.transpose(0, 2, 1) / np.sqrt(d_k)  # (h, n, n)
# One softmax per row, per head.
weights = softmax(scores)  # (h, n, n)
heads = weights @ V_h  # (h, n, d_v)

# Merge: the heads side by side again, then W^O mixes them.
concat = heads.transpose(1, 0, 2).reshape(n, h * d_v)  # (n, d_model)
out = concat @ W_o  # (n, d_model)

# The same layer in one library call.
library_out = multi_head_attention(X, X, params, h)
assert np.allclose(out, library_out), "the steps written out are the library's layer"
print("Q_h:", Q_h.shape, " weights:", weights.shape, " out:", out.shape)

# %% bookkeeping
# The library's helpers are the same cut and merge.
assert np.array_equal(Q_h, split_heads(Q, h)) and np.array_equal(concat, merge_heads(heads)), "split, merge"
_, library_weights = multi_head_attention(X, X, params, h, return_weights=True)  # (h, n, n)
assert np.allclose(weights, library_weights), "the library returns the same weights"

# The same thing the slow way: one head at a time, on its own slice of columns.
per_head = []
for i in range(h):
    cols = slice(i * d_k, (i + 1) * d_k)
    per_head.append(scaled_dot_product_attention(Q[:, cols], K[:, cols], V[:, cols]))  # (n, d_v)
loop_out = np.concatenate(per_head, axis=-1) @ W_o  # (n, d_model)
assert np.allclose(out, loop_out), "batched over heads == one head at a time"

favourite = weights.argmax(axis=-1)  # (h, n): the key each token weights most, per head
print("head 0 weights:\n", weights[0].round(3))
print("head 1 weights:\n", weights[1].round(3))
print("favourite key per token, head 0:", favourite[0], " head 1:", favourite[1])
