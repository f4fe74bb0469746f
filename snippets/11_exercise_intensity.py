import numpy as np

from attn import kv_cache_bytes, token_flops

# One layer of GPT-3 175B's shape (as above), one cached decoding step at position n - 1,
# 16-bit weights and cache. d_ff = 4 d_model here; the answer does not depend on it.
d_model, h, n, itemsize = 12288, 96, 2048, 2
d_ff = 4 * d_model
batches = [1, 8, 64]
groups = [h, 8, 1]

weight_flops = 8 * d_model**2 + 4 * d_model * d_ff  # the four projections and the FFN, per token
mixing_flops = 4 * n * d_model  # one query against n keys, then n values, all heads
counted = token_flops(n, d_model, d_ff, cached=True) == weight_flops + mixing_flops
assert counted, "token_flops must split into weights and mixing"
weight_bytes = (4 * d_model**2 + 2 * d_model * d_ff) * itemsize  # every weight read once per step


def cache_bytes(g):
    return kv_cache_bytes(1, n, d_model, h, groups=g, itemsize=itemsize)  # one layer, one sequence


weights_intensity = [b * weight_flops / weight_bytes for b in batches]  # FLOPs per byte read
cache_intensity = [mixing_flops / cache_bytes(g) for g in groups]  # the same for every b
step = np.array(
    [[b * (weight_flops + mixing_flops) / (weight_bytes + b * cache_bytes(g)) for g in groups] for b in batches]
)  # (len(batches), len(groups)): the whole step

print(f"weights: FLOPs per byte at batch {batches}: {weights_intensity}")
print(f"cache:   FLOPs per byte with {groups} key/value heads: {cache_intensity}, at every batch")
print("whole step, FLOPs per byte   MHA    GQA    MQA")
for b, row in zip(batches, step, strict=True):
    print(f"  batch {b:3d}                  " + "  ".join(f"{x:5.1f}" for x in row))
