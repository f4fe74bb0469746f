import matplotlib.pyplot as plt
import numpy as np

from attn import scaled_dot_product_attention

rng = np.random.default_rng(1)  # the example above: X first, then W_q, W_k, W_v
X = rng.standard_normal((4, 8))
W_q, W_k, W_v = rng.standard_normal((8, 4)), rng.standard_normal((8, 4)), rng.standard_normal((8, 4))
Q, K, V = X @ W_q, X @ W_k, X @ W_v
scores = Q @ K.T
_, weights = scaled_dot_product_attention(Q, K, V, return_weights=True)

tokens = [f"token {i}" for i in range(4)]
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")

limit = np.abs(scores).max()
image = left.imshow(scores, cmap="RdBu_r", vmin=-limit, vmax=limit)
fig.colorbar(image, ax=left, shrink=0.8)
left.set_title("raw scores  $QK^\\top$")

image = right.imshow(weights, cmap="Oranges", vmin=0, vmax=1)
fig.colorbar(image, ax=right, shrink=0.8)
right.set_title("weights  (each row sums to 1)")

for ax, matrix, digits in ((left, scores, 2), (right, weights, 3)):
    for (i, j), value in np.ndenumerate(matrix):
        dark = abs(value) > 0.6 * (limit if ax is left else 1)
        ax.text(j, i, f"{value:.{digits}f}", ha="center", va="center", fontsize=10, color="white" if dark else "black")
    ax.set_xticks(range(4), tokens)
    ax.set_yticks(range(4), tokens)
    ax.set_xlabel("key token")
    ax.set_ylabel("query token")
    ax.tick_params(length=0)
fig.savefig("weights.svg")
