# %% pattern
import numpy as np

from attn import causal_mask, receptive_field, strided_mask, strided_pairs

print(strided_mask(10, 3)[9].astype(int))  # query 9: keys 7, 8, 9 and 0, 3, 6

# %% cost
n, stride = 16384, 128  # stride = sqrt(n)
causal_pairs = n * (n + 1) // 2
sparse_pairs = strided_pairs(n, stride)
share = sparse_pairs / causal_pairs
most_keys = stride + (n - 1) // stride  # the last query: l local keys and (n - 1) // l strided
print(f"n = {n}, stride {stride}: {sparse_pairs:,} pairs of {causal_pairs:,} causal ({share:.4f})")
print(f"keys of the last query: {most_keys} (2 sqrt(n) = {2 * int(np.sqrt(n))})")

# %% two_layers
small_n, small_stride = 64, 8
two_layers = receptive_field(strided_mask(small_n, small_stride), 2)  # (n, n)
one_layer_misses = int((causal_mask(small_n) & ~strided_mask(small_n, small_stride)).sum())
reaches_all = bool(np.array_equal(two_layers, causal_mask(small_n)))
print(
    f"n = {small_n}, stride {small_stride}: one layer misses {one_layer_misses} causal pairs;"
    f" two layers reach every earlier position: {reaches_all}"
)
