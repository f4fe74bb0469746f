import matplotlib.pyplot as plt
import numpy as np

from attn import causal_mask, scaled_dot_product_attention

rng = np.random.default_rng(1)  # page 03's example: X, then W_q, W_k, W_v of variance 1 / d_model
X = rng.standard_normal((4, 8))
W_q, W_k, W_v = (rng.standard_normal((8, 4)) / np.sqrt(8) for _ in range(3))
Q, K, V = X @ W_q, X @ W_k, X @ W_v
mask = causal_mask(4)
_, unmasked = scaled_dot_product_attention(Q, K, V, return_weights=True)
_, masked = scaled_dot_product_attention(Q, K, V, mask=mask, return_weights=True)

# Two panels stacked, 4 inches wide: on a 390 px phone every label still reads at 10 pt or more.
fig, axes = plt.subplots(2, 1, figsize=(4.0, 8.0), layout="constrained")
panels = [(unmasked, "No mask", np.ones_like(mask)), (masked, "Causal mask: key j ≤ query i", mask)]
for ax, (weights, title, allowed) in zip(axes, panels, strict=True):
    ax.imshow(weights, cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(weights):
        if not allowed[i, j]:  # grey out what the mask removed
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, hatch="//", fc="#e6e6e6", ec="#b0b0b0"))
            ax.text(j, i, "0\nmasked", ha="center", va="center", fontsize=11.5, color="#555555")
        else:
            colour = "white" if value > 0.6 else "black"
            ax.text(j, i, f"{value:.3f}", ha="center", va="center", fontsize=12, color=colour)
    ax.set_title(title, fontsize=13)
    ax.set_xticks(range(4), range(4), fontsize=12)
    ax.set_yticks(range(4), range(4), fontsize=12)
    ax.set_xlabel("key token", fontsize=12)
    ax.set_ylabel("query token", fontsize=12)
    ax.tick_params(length=0)
fig.savefig("causal_weights.svg")
