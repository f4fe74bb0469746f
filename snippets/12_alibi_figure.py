import matplotlib.pyplot as plt
import numpy as np

from attn import alibi_bias, alibi_slopes

n = 512  # the last query sees keys at distances 0 .. n - 1
slopes = alibi_slopes(8)
bias = alibi_bias(n, slopes)[:, -1, ::-1]  # (h, n): the last query's bias, by distance 0 .. n - 1
weights = np.exp(bias) / np.exp(bias).sum(axis=1, keepdims=True)  # equal content scores
fig, ax = plt.subplots(figsize=(8, 4.2), layout="constrained")
for head, slope in enumerate(slopes):
    ax.semilogy(np.arange(n), weights[head], label=f"head {head}, slope 1/{round(1 / slope)}")
ax.set_ylim(1e-8, 1)
ax.set_xlabel("distance back from the query (tokens)")
ax.set_ylabel("attention weight, equal content scores")
ax.set_title("ALiBi, 8 heads: each head's weight falls geometrically with distance")
ax.legend(fontsize=8, ncol=2)
fig.savefig("alibi_reach.svg")
