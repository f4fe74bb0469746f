# %% lookup
import numpy as np

from attn import scaled_dot_product_attention, softmax

# The same three entries, but each key is a vector,
# so "close to" makes sense.
keys = np.array(
    [
        [1.0, 0.0],  # "red"
        [0.0, 1.0],  # "green"
        [-1.0, 0.0],  # "blue"
    ]
)
values = np.array([[10.0], [20.0], [30.0]])  # (n, d_v = 1)

# Mostly "green", a little "red".
query = np.array([[0.5, 2.0]])  # (1, d_k)
out, weights = scaled_dot_product_attention(query, keys, values, return_weights=True)
every_key_weighted = bool((weights > 0).all())
assert every_key_weighted

# The same direction, a larger dot product with every key.
sharp_query = 4 * query
sharp_out, sharp_weights = scaled_dot_product_attention(sharp_query, keys, values, return_weights=True)

# Longer still: the weights approach one-hot on the best key,
# the hard lookup.
hard_factor = 100
_, hard_weights = scaled_dot_product_attention(hard_factor * query, keys, values, return_weights=True)

print("weights:      ", weights.round(3))
print("result:       ", out.round(3))
print("sharp weights:", sharp_weights.round(3))
print("sharp result: ", sharp_out.round(3))
print("100 x query:  ", hard_weights.round(3))

# %% underflow
# A weight is e^(s - max) / sum over the row, with sum >= 1. It rounds to 0 once the quotient is
# below half the smallest subnormal, and it keeps fewer digits once it is below the smallest normal.
formats = {}
for dtype in (np.float64, np.float32):
    info = np.finfo(dtype)
    zero_gap = np.log(2) - np.log(info.smallest_subnormal)  # e^-gap = half the smallest subnormal
    subnormal_gap = -np.log(info.tiny)  # e^-gap = the smallest normal number
    formats[info.dtype.name] = (float(zero_gap), float(subnormal_gap))
    for gap, survives in ((zero_gap - 0.1, True), (zero_gap + 0.1, False)):  # a row of two scores
        w = softmax(np.array([0.0, -gap], dtype=dtype))
        assert (w[1] > 0) == survives, f"{info.dtype.name}: a weight rounds to 0 just past a gap of {zero_gap:.1f}"
underflow_gap, subnormal_gap = formats["float64"]
underflow_gap_32, subnormal_gap_32 = formats["float32"]
