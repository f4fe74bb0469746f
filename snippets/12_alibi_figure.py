import matplotlib.pyplot as plt
import numpy as np

from attn import alibi_bias, alibi_slopes

n = 512  # the last query sees keys at distances 0 .. n - 1
slopes = alibi_slopes(8)
bias = alibi_bias(n, slopes)[:, -1, ::-1]  # (h, n): the last query's bias, by distance 0 .. n - 1
weights = np.exp(bias) / np.exp(bias).sum(axis=1, keepdims=True)  # equal content scores
# 4.3 inches wide with 12.5 pt text, legend under the plot: shown 342 px wide on a 390 px phone,
# every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, ax = plt.subplots(figsize=(4.3, 6.4), layout="constrained")
for head, slope in enumerate(slopes):
    ax.semilogy(np.arange(n), weights[head], label=f"{head}: 1/{round(1 / slope)}")
ax.set_ylim(1e-8, 1)
ax.set_yticks([1e-8, 1e-6, 1e-4, 1e-2, 1], ["1e-8", "1e-6", "1e-4", "1e-2", "1"])  # full-size digits
ax.set_xlabel("distance back from the query\n(tokens)")
ax.set_ylabel("attention weight,\nequal content scores")
fig.suptitle("ALiBi, 8 heads: each head's weight\nfalls geometrically with distance", fontsize=12.5)
fig.legend(
    loc="outside lower center",
    ncols=4,
    title="head: slope",
    frameon=False,
    columnspacing=0.7,
    handlelength=1.0,
    handletextpad=0.4,
)
fig.savefig("alibi_reach.svg")
