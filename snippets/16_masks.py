import numpy as np

from attn import causal_mask, padding_mask, scaled_dot_product_attention

rng = np.random.default_rng(0)
batch, n, d_k = 2, 4, 8
q, k, v = (rng.standard_normal((batch, n, d_k)) for _ in range(3))  # (batch, n, d_k) each

# Right padding (attn.padding_mask): sequence 1 has 2 real tokens. Decoder self-attention uses
# the causal mask and the padding mask together.
mask = causal_mask(n) & padding_mask([4, 2], n)  # (n, n) & (batch, 1, n) -> (batch, n, n)
_, weights = scaled_dot_product_attention(q, k, v, mask=mask, return_weights=True)  # (batch, n, n)
assert np.all(weights[1][:, 2:] == 0.0), "a padded key got weight"

# Left padding: sequence 1 is [pad, pad, a, b]. Rows 0 and 1 are padding that may see only
# padding, so every one of their keys is masked.
left = np.arange(n) >= n - np.array([4, 2])[:, None]  # (batch, n): True for real tokens
left_mask = causal_mask(n) & left[:, None, :]  # (batch, n, n)
out, left_weights = scaled_dot_product_attention(q, k, v, mask=left_mask, return_weights=True)
fully_masked = ~left_mask.any(axis=-1)  # (batch, n): rows with no key at all
default = scaled_dot_product_attention(q, k, v, mask=left_mask)  # the fast path, no weights kept
assert np.all(left_weights[fully_masked] == 0.0), "a fully masked row got weights"
assert np.all(out[fully_masked] == 0.0) and np.all(default[fully_masked] == 0.0), "a fully masked row got output"

# The textbook softmax on the same row: exp(s - max s) / sum, where max s = -inf.
row = np.full(n, -np.inf)
with np.errstate(invalid="ignore"):
    textbook = np.exp(row - row.max()) / np.exp(row - row.max()).sum()

print("causal & padding mask, sequence 1 (2 real tokens):")
print(mask[1].astype(int))
print(f"left padding, fully masked rows (batch, position): {np.argwhere(fully_masked).tolist()}")
print("the textbook formula on such a row:", textbook)
