import matplotlib.pyplot as plt
import numpy as np

from attn import softmax

plt.rcParams.update({"font.size": 11, "legend.fontsize": 11})  # 10 pt or more at phone width

# The simulation of 04_variance.py, same seed and draw order.
rng = np.random.default_rng(0)
d_ks = np.array([4, 16, 64, 256, 1024])
variance, top_unscaled, top_scaled = [], [], []
for d_k in d_ks:
    q = rng.standard_normal((20_000, d_k))
    k = rng.standard_normal((20_000, d_k))
    variance.append((q * k).sum(axis=1).var())
    queries = rng.standard_normal((2_000, d_k))
    keys = rng.standard_normal((2_000, 10, d_k))
    scores = np.einsum("nd,nkd->nk", queries, keys)  # (2000, 10)
    top_unscaled.append(softmax(scores).max(axis=1).mean())
    top_scaled.append(softmax(scores / np.sqrt(d_k)).max(axis=1).mean())

fig, (top, bottom) = plt.subplots(2, 1, figsize=(4, 6.6), layout="constrained")

widths = np.array([2, 2048])
top.loglog(widths, widths, "--", color="gray", label="$y = d_k$")
top.loglog(d_ks, variance, "o", color="tab:blue", markersize=8, label="measured var$(q \\cdot k)$")
top.set_title("Dot-product variance grows like $d_k$")
top.set_ylabel("variance of $q \\cdot k$ (log scale)")
top.legend(loc="upper left")

bottom.semilogx(d_ks, top_unscaled, "o-", color="tab:red", label="unscaled")
bottom.semilogx(d_ks, top_scaled, "s-", color="tab:blue", label="scaled by 1/√$d_k$")
bottom.axhline(1.0, color="gray", linestyle=":", label="one-hot")
bottom.axhline(0.1, color="gray", linestyle="--", label="uniform, 1/10")
bottom.set_title("Largest softmax weight of 10 keys")
bottom.set_ylabel("mean over 2,000 queries")
bottom.set_ylim(0, 1.05)
bottom.legend(loc="center right", bbox_to_anchor=(1, 0.6))

for ax in (top, bottom):
    ax.set_xlabel("$d_k$ (log scale)")
    ax.set_xticks(d_ks, [str(d) for d in d_ks])
    ax.minorticks_off()
fig.savefig("variance_and_saturation.svg")
