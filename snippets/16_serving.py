from attn import kv_cache_bytes

# A 70B-class decoder, shape assumed for the count: N layers, h query heads of width d_k,
# g key-value heads (grouped-query attention), 16-bit numbers.
N, h, g, d_k, bytes_per = 80, 64, 8, 128, 2
context, batch = 4096, 32
per_token = 2 * N * g * d_k * bytes_per  # keys and values, every layer
per_token_mha = 2 * N * h * d_k * bytes_per  # if every query head had its own
total = per_token * context * batch
weights = 70e9 * bytes_per
assert per_token_mha == per_token * h // g
assert total == batch * kv_cache_bytes(N, context, h * d_k, h, g, bytes_per)  # the library's count
per_token_mib, per_token_mha_mib = per_token / 2**20, per_token_mha / 2**20
total_gib, total_mha_gib = total / 2**30, total * h // g / 2**30
weights_gib = round(weights / 2**30)  # to the GiB
print(f"per token: {per_token_mib:.4f} MiB with {g} KV heads, {per_token_mha_mib:.2f} MiB with {h}")
print(
    f"{batch} sequences of {context}: {total_gib:.0f} GiB of cache"
    f" ({total_mha_gib:.0f} GiB without sharing); weights {weights_gib:.0f} GiB"
)
