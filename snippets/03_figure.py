import matplotlib.pyplot as plt
import numpy as np

from attn import scaled_dot_product_attention

rng = np.random.default_rng(1)  # the example above: X first, then W_q, W_k, W_v
X = rng.standard_normal((4, 8))
W_q, W_k, W_v = (rng.standard_normal((8, 4)) / np.sqrt(8) for _ in range(3))  # variance 1 / d_model
Q, K, V = X @ W_q, X @ W_k, X @ W_v
scores = Q @ K.T
_, weights = scaled_dot_product_attention(Q, K, V, return_weights=True)

tokens = [f"token {i}" for i in range(4)]
fig, (top, bottom) = plt.subplots(2, 1, figsize=(4.6, 7.6), layout="constrained")

limit = np.abs(scores).max()
image = top.imshow(scores, cmap="RdBu_r", vmin=-limit, vmax=limit)
fig.colorbar(image, ax=top, shrink=0.8)
top.set_title("Raw scores $QK^\\top$", fontsize=12)

image = bottom.imshow(weights, cmap="Oranges", vmin=0, vmax=1)
fig.colorbar(image, ax=bottom, shrink=0.8)
bottom.set_title("Weights (each row sums to 1)", fontsize=12)

for ax, matrix, digits in ((top, scores, 2), (bottom, weights, 3)):
    for (i, j), value in np.ndenumerate(matrix):
        dark = abs(value) > 0.6 * (limit if ax is top else 1)
        ax.text(j, i, f"{value:.{digits}f}", ha="center", va="center", fontsize=11, color="white" if dark else "black")
    ax.set_xticks(range(4), tokens, fontsize=11)
    ax.set_yticks(range(4), tokens, fontsize=11)
    ax.set_xlabel("key token", fontsize=11)
    ax.set_ylabel("query token", fontsize=11)
    ax.tick_params(length=0)
fig.savefig("weights.svg")
