import numpy as np

import attn

n, d_model, h = 12, 32, 8
d_k = d_model // h
rng = np.random.default_rng(4)
x = rng.standard_normal((n, d_model))  # (n, d_model)
mha = attn.init_multi_head(rng, d_model)  # W_q, W_k, W_v, W_o: (d_model, d_model) each
mask = attn.causal_mask(n)

# groups = h: every query head has its own key and value head. That is multi-head attention.
gqa = attn.grouped_query_attention(x, x, mha, h, groups=h, mask=mask)  # (n, d_model)
gap = np.abs(gqa - attn.multi_head_attention(x, x, mha, h, mask)).max()

groups = [8, 2, 1]  # multi-head, grouped-query with 2 groups, multi-query
params = {g: attn.mean_pool_kv_heads(mha, h, g) for g in groups}  # average the key/value heads of each group
W_k_shapes = [params[g]["W_k"].shape for g in groups]  # (d_model, g * d_k)
for g in groups:
    print(f"groups = {g}: W_q {params[g]['W_q'].shape}  W_k {params[g]['W_k'].shape}  W_v {params[g]['W_v'].shape}")
assert gap <= 1e-12, "grouped-query attention with groups = h must be multi-head attention (to 1e-12)"

# Decode token by token with a cache of g key/value heads; compare with the full causal pass.
stored, decode_ok = [], []
for g in groups:
    cache = attn.KVCache(heads=g, d_k=d_k, capacity=n)
    stepped = np.concatenate([attn.cached_self_attention(x[i : i + 1], params[g], h, cache) for i in range(n)])
    decode_ok.append(bool(np.abs(stepped - attn.grouped_query_attention(x, x, params[g], h, g, mask)).max() <= 1e-12))
    stored.append(cache.nbytes)
shrink = [stored[0] // s for s in stored]
assert all(decode_ok), "cached decoding must reproduce the full causal pass for every number of groups"
assert shrink == [h // g for g in groups], "the cache must shrink by h / groups"
assert stored == [attn.kv_cache_bytes(1, n, d_model, h, g) for g in groups], "kv_cache_bytes, one layer"
print(f"cache bytes after {n} tokens: {stored}")
print(f"shrink: {shrink}")
