import numpy as np

from attn import scaled_dot_product_attention, softmax

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
same_as_attn = np.allclose(out, scaled_dot_product_attention(Q, K, V))

print("scores:\n", scores)
print("scaled:\n", scaled.round(3))
print("weights:\n", weights.round(3))
print("row sums:", row_sums)
print("out:\n", out.round(3))
print("same as attn.scaled_dot_product_attention:", same_as_attn)
