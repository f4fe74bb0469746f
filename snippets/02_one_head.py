# %% tokens
import numpy as np

import attn  # the library, for a check at the end

# Tokens A, B, C as rows: (n, d_model)
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
Q = K = V = X  # identity projections
d_k = K.shape[-1]

# %% scores
scores = Q @ K.T  # (n, n): query i against key j
print("scores:\n", scores)

# %% scale
scaled = scores / np.sqrt(d_k)  # (n, n)
print("scaled:\n", scaled.round(3))


# %% softmax
def softmax(x):
    """Plain numpy softmax of each row.

    x: (n, m) -> (n, m), rows sum to 1.
    """
    # Minus the row max: see the note below.
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


weights = softmax(scaled)  # (n, n): each row sums to 1
print("weights:\n", weights.round(3))

# %% by_hand
exp_C = np.exp(scaled[2])  # (3,): e to row C's scaled scores
sum_C = exp_C.sum()
print("row C: exp", exp_C.round(3), " sum", sum_C.round(3), " divided", (exp_C / sum_C).round(3))

# %% mix
# Row i mixes the values with row i's weights.
out = weights @ V  # (n, d_v)
print("out:\n", out.round(3))

# %% check
assert np.allclose(weights.sum(axis=-1), 1)  # every row of weights sums to 1
assert np.allclose(weights, attn.softmax(scaled))  # the library's softmax gives the same weights
assert np.allclose(out, attn.scaled_dot_product_attention(Q, K, V))  # and its attention the same output
