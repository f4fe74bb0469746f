import matplotlib.pyplot as plt
import numpy as np

from attn import kv_cache_bytes

# GPT-3 175B's shape (Brown et al. 2020, Table 2.1): 96 layers, d_model = 12288, 96 heads,
# a 2048-token context. It uses multi-head attention; the grouped-query (8 key/value heads)
# and multi-query (1) versions of the same shape are what-ifs, drawn for comparison.
N, d_model, h, n_ctx = 96, 12288, 96, 2048
itemsize = 2  # 16-bit keys and values
variants = {"multi-head (96 key/value heads)": h, "grouped-query (8)": 8, "multi-query (1)": 1}
n = 2 ** np.arange(4, 12)  # context lengths 16 .. 2048

fig, ax = plt.subplots(figsize=(8, 4.8), layout="constrained")
for (label, groups), style in zip(variants.items(), ["-", "--", ":"], strict=True):
    gib = [kv_cache_bytes(N, int(m), d_model, h, groups, itemsize) / 2**30 for m in n]
    ax.plot(n, gib, style, linewidth=2.2, label=label)
    ax.annotate(
        f"{gib[-1]:.3g} GiB", (n[-1], gib[-1]), xytext=(6, 0), textcoords="offset points", va="center", fontsize=10
    )
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xticks(n, [str(m) for m in n])
ax.minorticks_off()
ax.set_xlim(n[0] / 1.3, n[-1] * 3)  # room for the labels on the right
ax.set_xlabel("context length n (tokens, log scale)")
ax.set_ylabel("key-value cache per sequence (GiB, log scale)")
ratios = " and ".join(str(h // g) for g in list(variants.values())[1:])  # h / groups
ax.set_title(f"KV cache of GPT-3 175B's shape in 16 bits: parallel lines, {ratios} times apart")
ax.grid(True, which="major", alpha=0.3)
ax.legend(loc="upper left")
fig.savefig("cache_size.svg")
