import matplotlib.pyplot as plt
import numpy as np

from attn import softmax

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

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")

widths = np.array([2, 2048])
left.loglog(widths, widths, "--", color="gray", label="$y = d_k$")
left.loglog(d_ks, variance, "o", color="tab:blue", markersize=8, label="measured var$(q \\cdot k)$")
left.set_title("Dot-product variance grows like $d_k$")
left.set_ylabel("variance of $q \\cdot k$ (log scale)")
left.legend(loc="upper left")

right.semilogx(d_ks, top_unscaled, "o-", color="tab:red", label="unscaled: softmax$(q \\cdot k)$")
right.semilogx(d_ks, top_scaled, "s-", color="tab:blue", label="scaled: softmax$(q \\cdot k / \\sqrt{d_k})$")
right.axhline(1.0, color="gray", linestyle=":", label="one-hot (one key takes all)")
right.axhline(0.1, color="gray", linestyle="--", label="uniform over the 10 keys")
right.set_title("Largest softmax weight, mean over 2,000 queries")
right.set_ylabel("largest weight")
right.set_ylim(0, 1.05)
right.legend(loc="center right", fontsize=9)

for ax in (left, right):
    ax.set_xlabel("$d_k$ (log scale)")
    ax.set_xticks(d_ks, [str(d) for d in d_ks])
    ax.minorticks_off()
fig.savefig("variance_and_saturation.svg")
