from attn import kv_cache_bytes

# GPT-3 175B's shape (Brown et al. 2020, Table 2.1 and section 2.1), as in 11_large_cache.py.
N, d_model, h, n_ctx = 96, 12288, 96, 2048
itemsize = 2  # 16-bit keys and values (our assumption, as above)
batch = 32  # sequences served at once, each at the full context (our choice)
budget_gib = 80  # memory set aside for caches (our choice)

d_k = d_model // h
groups = [h, 8, 1]  # multi-head, grouped-query with 8 key/value heads, multi-query
per_token = [kv_cache_bytes(N, 1, d_model, h, groups=g, itemsize=itemsize) for g in groups]
per_sequence = [kv_cache_bytes(N, n_ctx, d_model, h, groups=g, itemsize=itemsize) for g in groups]
by_hand = [2 * N * n_ctx * g * d_k * itemsize for g in groups]  # keys and values, layers, positions, heads
agrees = per_sequence == by_hand
assert agrees, "the cache must be 2 N n g d_k x 2 bytes"
batch_gib = [batch * b / 2**30 for b in per_sequence]
per_token_kib = [b / 2**10 for b in per_token]
fit_in_budget = [int(budget_gib * 2**30 // b) for b in per_sequence]  # whole sequences at full context

print(f"d_k = {d_k}; key/value heads: {groups}")
print(f"per token (KiB):                      {per_token_kib}")
print(f"batch of {batch} at {n_ctx} tokens (GiB):     {batch_gib}")
print(f"full-context sequences in {budget_gib} GiB:      {fit_in_budget}")
