# %% lookup
import numpy as np

from attn import scaled_dot_product_attention

# The same three entries, but each key is a vector, so "close to" makes sense.
keys = np.array(
    [
        [1.0, 0.0],  # "red"
        [0.0, 1.0],  # "green"
        [-1.0, 0.0],
    ]
)  # "blue"
values = np.array([[10.0], [20.0], [30.0]])  # (n, d_v) with d_v = 1

query = np.array([[0.5, 2.0]])  # (1, d_k): mostly "green", a little "red"
out, weights = scaled_dot_product_attention(query, keys, values, return_weights=True)
every_key_weighted = bool((weights > 0).all())
assert every_key_weighted

sharp_query = 4 * query  # the same direction, a larger dot product with every key
sharp_out, sharp_weights = scaled_dot_product_attention(sharp_query, keys, values, return_weights=True)

# Longer still: the weights approach one-hot on the best key, the hard lookup.
hard_factor = 100
_, hard_weights = scaled_dot_product_attention(hard_factor * query, keys, values, return_weights=True)

print("weights:      ", weights.round(3))
print("result:       ", out.round(3))
print("sharp weights:", sharp_weights.round(3))
print("sharp result: ", sharp_out.round(3))
print("100 x query:  ", hard_weights.round(3))

# %% underflow
# In float64, exp(-x) rounds to exactly 0 once x passes this (half the smallest subnormal).
underflow_gap = np.log(2) - np.log(np.finfo(np.float64).smallest_subnormal)
