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

# 4.3 inches wide with 12.5 pt text, legend under the plot: shown 342 px wide on a 390 px phone,
# every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, ax = plt.subplots(figsize=(4.3, 6.0), layout="constrained")
for (label, groups), style in zip(variants.items(), ["-", "--", ":"], strict=True):
    gib = [kv_cache_bytes(N, int(m), d_model, h, groups, itemsize) / 2**30 for m in n]
    ax.plot(n, gib, style, linewidth=2.2, label=label)
    ax.annotate(f"{gib[-1]:.3g} GiB", (n[-1], gib[-1]), xytext=(4, 0), textcoords="offset points", va="center")
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xticks(n[1::2], [str(m) for m in n[1::2]])  # every other length, so the labels fit
ax.minorticks_off()
ax.yaxis.set_major_formatter("{x:g}")  # 0.001 ... 10: full-size digits, no exponents
ax.set_xlim(n[0] / 1.3, n[-1] * 12)  # room for the labels on the right
ax.set_xlabel("context length n (tokens, log scale)")
ax.set_ylabel("KV cache per sequence\n(GiB, log scale)")
ratios = " and ".join(str(h // g) for g in list(variants.values())[1:])  # h / groups
fig.suptitle(f"KV cache of GPT-3 175B's shape in 16 bits:\nparallel lines, {ratios} times apart", fontsize=12.5)
ax.grid(True, which="major", alpha=0.3)
fig.legend(loc="outside lower center", frameon=False)
fig.savefig("cache_size.svg")
