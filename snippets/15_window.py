# %% mask
import numpy as np

from attn import KVCache, RollingKVCache, receptive_field, scaled_dot_product_attention, sliding_window_mask

w = 3  # keys per query, itself included
mask = sliding_window_mask(8, w)  # (n, n)
print(mask.astype(int))

# %% cache
rng = np.random.default_rng(0)
n, d_k = 20, 8
q, k, v = rng.standard_normal((3, 1, n, d_k))  # (heads, n, d_k) each
full = scaled_dot_product_attention(q, k, v, mask=sliding_window_mask(n, w))  # (heads, n, d_k)
rolling, growing = RollingKVCache(1, d_k, window=w), KVCache(1, d_k, capacity=n)
decoded = []
for p in range(n):  # one token at a time, as generation runs
    keys, values = rolling.append(k[:, p : p + 1], v[:, p : p + 1])  # the last w positions
    growing.append(k[:, p : p + 1], v[:, p : p + 1])
    decoded.append(scaled_dot_product_attention(q[:, p : p + 1], keys, values))
decoded = np.concatenate(decoded, axis=1)  # (heads, n, d_k)
cache_matches = bool(np.abs(decoded - full).max() <= 1e-12)
rolling_bytes, growing_bytes = rolling.nbytes, growing.nbytes
assert cache_matches, "decoding with the ring buffer must equal full attention under the window mask"
print(f"cache after {n} tokens: rolling {rolling_bytes} bytes, growing {growing_bytes} bytes")

# %% reach
n, w = 64, 5
reach_back = []
for layers in range(1, 5):
    reach = receptive_field(sliding_window_mask(n, w), layers)  # (n, n)
    reach_back.append(int(n - 1 - np.argmax(reach[-1])))  # oldest position the last one reaches
predicted = [layers * (w - 1) for layers in range(1, 5)]
print(f"window {w}: the last position reaches back {reach_back} positions after 1..4 layers")
assert reach_back == predicted, "each layer must reach w - 1 positions further back"
print(f"layers x (w - 1): {predicted}")
mistral_span = 32 * 4096  # Mistral 7B: 32 layers, W = 4096 (their W counts the keys before i)
