# %% setup
import numpy as np

from attn import scaled_dot_product_attention
from attn import softmax as attn_softmax


def softmax(x):
    """Plain numpy softmax of each row. x: (n, m) -> (n, m), rows sum to 1."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))  # (n, m); minus the row max: see the note below
    return e / e.sum(axis=-1, keepdims=True)


# Three tokens, d_model = 2. Identity projections, so Q = K = V = X.
X = np.array(
    [
        [1.0, 0.0],  # A
        [0.0, 1.0],  # B
        [1.0, 1.0],  # C
    ]
)
Q = K = V = X
d_k = K.shape[-1]

# %% scores
scores = Q @ K.T  # (n, n): query i against key j
scaled = scores / np.sqrt(d_k)  # (n, n)
print("scores:\n", scores)
print("scaled:\n", scaled.round(3))

# %% weights
weights = softmax(scaled)  # (n, n): each row sums to 1
exp_C = np.exp(scaled[2])  # (3,): row C by hand, e to its scaled scores
sum_C = exp_C.sum()
assert np.allclose(weights.sum(axis=-1), 1)
assert np.allclose(weights, attn_softmax(scaled))  # the library gives the same numbers
print("weights:\n", weights.round(3))
print("row C: exp of scaled scores:", exp_C.round(3), " sum:", sum_C.round(3))

# %% mix
out = weights @ V  # (n, d_v): rows mix the values
assert np.allclose(out, scaled_dot_product_attention(Q, K, V))
print("out:\n", out.round(3))
