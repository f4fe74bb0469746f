# %% setup
import numpy as np

from attn import (
    count_parameters,
    decoder_parameter_counts,
    init_llama_block,
    kv_cache_bytes,
    llama_block,
    llama_d_ff,
    rope_grouped_attention,
)

# %% block
rng = np.random.default_rng(0)
n, d_model, h, groups, d_ff = 6, 16, 4, 2, 44
params = init_llama_block(rng, d_model, h, groups, d_ff)
x = rng.standard_normal((n, d_model))  # (n, d_model)
y = llama_block(x, params, h, groups)
print("block:", x.shape, "->", y.shape)

# %% properties
later = x.copy()
later[3:] += 10.0  # change the last three tokens
causal = bool(np.allclose(llama_block(later, params, h, groups)[:3], y[:3]))
shifted = rope_grouped_attention(x, params["self_attn"], h, groups, positions=np.arange(n) + 1000)
offsets_only = bool(np.allclose(shifted, rope_grouped_attention(x, params["self_attn"], h, groups)))
block_params = count_parameters(params)
attention_params = count_parameters(params["self_attn"])
mha_params = 4 * d_model**2  # W_q, W_k, W_v, W_o of full width
assert causal, "the first 3 outputs must not depend on the last 3 tokens"
assert offsets_only, "moving every position by 1000 must leave RoPE attention unchanged"
print("parameters:", {name: count_parameters(part) for name, part in params.items()}, "=", block_params)

# %% count_7b
# Llama 2 7B as released: 32 layers of width 4096, 32 heads, no GQA, a vocabulary of 32,000.
llama_7b = dict(vocab=32000, d_model=4096, N=32, h=32, groups=32, d_ff=llama_d_ff(4096, 256))
counts_7b = decoder_parameter_counts(**llama_7b)
total_7b = counts_7b["total"] / 1e9  # billions
norms_7b = counts_7b["norms"]
layers_7b = counts_7b["attention"] + counts_7b["ffn"] + counts_7b["norms"] - 4096  # final norm aside
ffn_share_7b = counts_7b["ffn"] / layers_7b  # of the layers' parameters
ffn_pct_7b = round(100 * ffn_share_7b)  # the same, in percent
for part, count in counts_7b.items():
    if part != "active":
        print(f"{part:>9}: {count:>13,}")
print(f"feed-forward share of the layers: {ffn_pct_7b}%")

# %% kv_70b
# Llama 2 70B as released: 80 layers of width 8192, 64 query heads, 8 key/value heads.
kv_gqa = kv_cache_bytes(N=80, n=1, d_model=8192, h=64, groups=8, itemsize=2)  # 16-bit numbers
kv_mha = kv_cache_bytes(N=80, n=1, d_model=8192, h=64, itemsize=2)  # 64 key/value heads
kv_gqa_kib, kv_mha_kib = kv_gqa / 1024, kv_mha / 1024
context_gib = 4096 * kv_gqa / 2**30, 4096 * kv_mha / 2**30  # a full 4096-token context
print(f"per token: GQA {kv_gqa:,} bytes ({kv_gqa_kib:.0f} KiB), without {kv_mha:,} ({kv_mha_kib:.0f} KiB)")
print(f"4096 tokens: {context_gib[0]:.2f} GiB against {context_gib[1]:.2f} GiB")
