from attn import kv_cache_bytes, score_matrix_bytes

# A Mistral-7B-shaped decoder (Jiang et al. 2023, Table 1): 32 layers, 32 query heads of width
# 128 (d_model = 4096), 8 key-value heads; 16-bit numbers (2 bytes).
N, d_model, h, groups, itemsize = 32, 4096, 32, 8, 2
GiB = 2**30
lengths = [4096, 32768, 131072]
scores_gib = [score_matrix_bytes(n, itemsize) / GiB for n in lengths]  # one head, one layer
cache_gib = [kv_cache_bytes(N, n, d_model, h, groups, itemsize) / GiB for n in lengths]  # one sequence
per_token_kib = kv_cache_bytes(N, 1, d_model, h, groups, itemsize) / 2**10
for n, s, c in zip(lengths, scores_gib, cache_gib, strict=True):
    print(f"n = {n:>6}: one head's n x n scores {s:7.3f} GiB, the whole KV cache {c:5.1f} GiB")
print(f"KV cache per token: {per_token_kib:.0f} KiB")
