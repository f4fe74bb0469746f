import numpy as np

from attn import scaled_dot_product_attention

# One query, four keys, d_k = 1: the scaled score of key j is q * k_j / sqrt(1) = s[j].
s = np.array([1.0, 2.0, 0.0, 3.0])  # (n_k,)
q = np.array([[1.0]])  # (n_q, d_k) = (1, 1)
k = s[:, None]  # (n_k, d_k) = (4, 1)
v = np.eye(4)  # (n_k, d_v) = (4, 4): each output row is its weight row

padding = np.array([[True, True, True, False]])  # (n_q, n_k): key 3 is padding
_, unmasked = scaled_dot_product_attention(q, k, v, return_weights=True)  # (1, 4)
_, masked = scaled_dot_product_attention(q, k, v, mask=padding, return_weights=True)  # (1, 4)
renormalised = unmasked[0, :3] / (1.0 - unmasked[0, 3])  # the kept weights, scaled to sum to 1
is_renormalised = bool(np.allclose(masked[0, :3], renormalised, rtol=0, atol=1e-15))
assert is_renormalised, "masking must renormalise the kept weights"

nothing = np.zeros((1, 4), dtype=bool)  # every key masked
out_none, w_none = scaled_dot_product_attention(q, k, v, mask=nothing, return_weights=True)
with np.errstate(invalid="ignore"):  # -inf - (-inf) is nan, which is the point
    scores = np.full(4, -np.inf)
    e = np.exp(scores - scores.max())
    textbook = e / e.sum()  # the formula as written: 0 / 0
zero_times_nan = float(np.array([0.5, 0.5, 0.0]) @ np.array([1.0, 2.0, np.nan]))

print(f"scores: {s}")
print(f"weights, no mask:      {unmasked[0].round(4)}")
print(f"weights, key 3 masked: {masked[0].round(4)}")
print(f"every key masked, attn: weights {w_none[0]}  output {out_none[0]}")
print(f"every key masked, the formula as written: {textbook}")
print(f"a weight of 0 on a nan value: [0.5, 0.5, 0] @ [1, 2, nan] = {zero_times_nan}")
