import numpy as np

from attn import scaled_dot_product_attention
from attn import softmax as attn_softmax


def softmax(x):
    """Plain numpy softmax of each row. x: (n, m) -> (n, m), rows sum to 1."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))  # (n, m); minus the row max: see the note below
    return e / e.sum(axis=-1, keepdims=True)


# Three tokens, d_model = 2. Identity projections, so Q = K = V = X.
X = np.array([[1.0, 0.0],   # A
              [0.0, 1.0],   # B
              [1.0, 1.0]])  # C
Q = K = V = X
d_k = K.shape[-1]

scores = Q @ K.T                # (n, n): query i against key j
scaled = scores / np.sqrt(d_k)  # (n, n)
weights = softmax(scaled)       # (n, n): each row sums to 1
out = weights @ V               # (n, d_v): rows mix the values

row_sums = weights.sum(axis=-1).round(12)  # (n,)
distinct_scaled = len(np.unique(scaled.round(12)))
favourite_of_C = int(weights[2].argmax())  # the key C weights most

# Row C, one number at a time.
exp_C = np.exp(scaled[2])          # (3,): e to the scaled scores
sum_C = exp_C.sum()
weights_C = exp_C / sum_C          # (3,): row C of the weights
exp_CA_plus_CC = exp_C[0] + exp_C[2]
out_C_first = exp_CA_plus_CC / sum_C  # w_CA + w_CC
rounded_weights_sum = weights_C[0].round(3) + weights_C[2].round(3)  # what the rounded weights add to

# The library gives the same numbers.
same_as_attn_softmax = np.allclose(weights, attn_softmax(scaled))
same_as_attn = np.allclose(out, scaled_dot_product_attention(Q, K, V))

print("scores:\n", scores)
print("scaled:\n", scaled.round(3))
print("weights:\n", weights.round(3))
print("row sums:", row_sums)
print("out:\n", out.round(3))
print("row C: exp of scaled scores:", exp_C.round(3), " sum:", sum_C.round(3))
print("row C: weights = exp / sum:", weights_C.round(3))
print("out_C[0] = (exp_CA + exp_CC) / sum:", out_C_first.round(3))
print("same as attn.softmax:", same_as_attn_softmax)
print("same as attn.scaled_dot_product_attention:", same_as_attn)
