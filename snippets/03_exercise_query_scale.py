import numpy as np

from attn import scaled_dot_product_attention

# The soft lookup of this page: three keys, one value each.
keys = np.array(
    [
        [1.0, 0.0],  # "red"
        [0.0, 1.0],  # "green"
        [-1.0, 0.0],
    ]
)  # "blue"
values = np.array([[10.0], [20.0], [30.0]])  # (n, d_v) with d_v = 1
query = np.array([[0.5, 2.0]])  # (1, d_k): mostly "green", a little "red"

zero_factor, flip_factor = 0, -100
zero_out, zero_weights = scaled_dot_product_attention(zero_factor * query, keys, values, return_weights=True)
flip_out, flip_weights = scaled_dot_product_attention(flip_factor * query, keys, values, return_weights=True)
mean_value = values.mean()
flip_scores = (flip_factor * query) @ keys.T  # (1, n), before the 1 / sqrt(d_k)

# A query that points away from green alone: red and blue tie, green is pushed down.
away_query = np.array([[0.0, -4.0]])  # (1, d_k)
away_out, away_weights = scaled_dot_product_attention(away_query, keys, values, return_weights=True)
assert away_weights[0, 1] < away_weights[0, 0] == away_weights[0, 2], "away from green: green gets the least"

print(f"0 x query:    weights {zero_weights.round(3)}  result {zero_out.round(3)}  mean of values {mean_value}")
print(f"-100 x query: scores {flip_scores}  weights {flip_weights.round(3)}  result {flip_out.round(3)}")
print(f"query {away_query[0]}: weights {away_weights.round(3)}")
