import numpy as np

from attn import scaled_dot_product_attention

X = np.array(
    [
        [1.0, 0.0],  # A
        [0.0, 1.0],  # B
        [1.0, 1.0],  # C
        [0.0, 0.0],
    ]
)  # D: the zero vector

out, weights = scaled_dot_product_attention(X, X, X, return_weights=True)  # Q = K = V = X

d_weights = weights[3]  # D's query scores 0 against every key
d_out = out[3]
mean_of_values = X.mean(axis=0)  # (d_v,)
d_out_is_mean = bool(np.allclose(d_out, mean_of_values, rtol=0, atol=1e-15))
assert d_out_is_mean
a_on_d = weights[0, 3]  # A scores 0 against D, as against B

# A's weights on A, B, C before D joined: D adds e^0 = 1 to the sum, so all three shrink alike.
_, weights_without_d = scaled_dot_product_attention(X[:3], X[:3], X[:3], return_weights=True)
shrink = weights[0, :3] / weights_without_d[0]  # (3,)
shrink_factor = shrink[0]
same_factor = bool(np.allclose(shrink, shrink_factor, rtol=1e-15, atol=0))
assert same_factor

print(f"D's weights: {d_weights}")
print(f"D's output: {d_out}  mean of the values: {mean_of_values}  equal: {d_out_is_mean}")
print(f"A's weights: {weights_without_d[0].round(3)} -> {weights[0].round(3)}")
print(f"each of A's old weights multiplied by {shrink_factor:.3f}, the same for all three: {same_factor}")
