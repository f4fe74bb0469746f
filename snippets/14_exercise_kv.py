from attn import kv_cache_bytes

# 16-bit numbers, one token. Llama 2 7B: 32 layers, 32 heads of 128, no GQA.
# Mixtral 8x7B (Jiang et al. 2024, Table 1): 32 layers, 32 query heads of 128, 8 key/value heads.
llama_7b = kv_cache_bytes(N=32, n=1, d_model=4096, h=32, itemsize=2)
mixtral = kv_cache_bytes(N=32, n=1, d_model=4096, h=32, groups=8, itemsize=2)
ratio = llama_7b / mixtral
print(f"Llama 2 7B: {llama_7b:,} bytes per token; Mixtral 8x7B: {mixtral:,}; ratio {ratio:.0f}")
