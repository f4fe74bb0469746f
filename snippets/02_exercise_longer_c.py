import numpy as np

from attn import scaled_dot_product_attention

X = np.array(
    [
        [1.0, 0.0],  # A
        [0.0, 1.0],  # B
        [1.0, 1.0],
    ]
)  # C
X_long = X.copy()
X_long[2] *= 2  # C = [2, 2]: the same direction, twice as long

_, weights = scaled_dot_product_attention(X, X, X, return_weights=True)  # Q = K = V = X
out_long, weights_long = scaled_dot_product_attention(X_long, X_long, X_long, return_weights=True)

c_on_itself, c_on_itself_long = weights[2, 2], weights_long[2, 2]
a_on_c, a_on_c_long = weights[0, 2], weights_long[0, 2]
scores_c_long = X_long[2] @ X_long.T  # C's query against every key: (3,)
a_dot_c, a_dot_c_long = X[0] @ X[2], X_long[0] @ X_long[2]

# By hand: C's scaled scores are 2 / sqrt 2, 2 / sqrt 2 and 8 / sqrt 2.
scaled_c_long = scores_c_long / np.sqrt(2)
by_hand = np.exp(scaled_c_long[2]) / np.exp(scaled_c_long).sum()

print(f"C = [2, 2]: C's scores {scores_c_long}, scaled {scaled_c_long.round(3)}")
print(f"C's weight on itself: {c_on_itself:.3f} -> {c_on_itself_long:.3f} (by hand {by_hand:.3f})")
print(f"A's score against C:  {a_dot_c} -> {a_dot_c_long}")
print(f"A's weight on C:      {a_on_c:.3f} -> {a_on_c_long:.3f}")
print(f"outputs with C = [2, 2]:\n{out_long.round(3)}")
