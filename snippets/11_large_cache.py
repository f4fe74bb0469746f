from attn import kv_cache_bytes

# GPT-3 175B (Brown et al. 2020, Table 2.1 and section 2.1):
# 96 layers, d_model = 12288, 96 heads of width 128,
# a context window of 2048 tokens.
N, d_model, h, n_ctx = 96, 12288, 96, 2048
n_params = 175e9
# Bytes per number if keys and values are kept
# as 16-bit floats (our assumption).
itemsize = 2

per_token = kv_cache_bytes(N, 1, d_model, h, itemsize=itemsize)
per_sequence = kv_cache_bytes(N, n_ctx, d_model, h, itemsize=itemsize)
by_hand = 2 * N * n_ctx * d_model * itemsize
weights = n_params * itemsize
# Full-context caches that weigh as much as the weights.
sequences_per_weights = weights / per_sequence
assert per_sequence == by_hand, "the cache must be 2 N n d_model x 2 bytes"
per_token_mib = per_token / 2**20
per_sequence_gib = per_sequence / 2**30

print(f"per token: {per_token} bytes = {per_token_mib:.1f} MiB")
print(f"per sequence of {n_ctx} tokens: {per_sequence} bytes = {per_sequence_gib:.1f} GiB")
print(f"the weights in 16 bits: {weights / 2**30:.0f} GiB = {sequences_per_weights:.1f} full caches")
