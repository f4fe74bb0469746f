import inspect

from attn import blockwise_attention
from attn.cost import score_block_bytes
from attn.kernels import QUERY_BLOCK  # the default's query rows per strip (not public API)

n, d_k, d_v = 4096, 64, 64  # the largest row of the memory table on page 08
itemsize, MiB = 8, 2**20

defaults = inspect.signature(blockwise_attention).parameters
block_rows, block_keys = defaults["block_size"].default, defaults["key_block_size"].default

shifted = n * (d_k + 1) * itemsize / MiB  # scaled queries, or keys, with one extra column
output = n * d_v * itemsize / MiB  # the (n, d_v) result
default_parts = {
    f"score strip, {QUERY_BLOCK} x {n}": score_block_bytes(QUERY_BLOCK, n) / MiB,
    "queries with the shift column": shifted,
    "keys with a column of ones": shifted,
    "output": output,
}
blockwise_parts = {
    f"score block, {block_rows} x {block_keys}": score_block_bytes(block_rows, block_keys) / MiB,
    "keys with a column of ones": shifted,
    "output": output,
}
default_total = sum(default_parts.values())
blockwise_total = sum(blockwise_parts.values())

for name, parts, total in (("default", default_parts, default_total), ("blockwise", blockwise_parts, blockwise_total)):
    print(f"{name} at n = {n}, MiB:")
    for part, mib in parts.items():
        print(f"  {part:<32} {mib:6.2f}")
    print(f"  {'sum of the large parts':<32} {total:6.2f}")
