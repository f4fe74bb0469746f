import matplotlib.pyplot as plt
import numpy as np

from attn import init_multi_head, multi_head_attention

rng = np.random.default_rng(1)  # the same tokens and parameters as the snippet above
X = rng.standard_normal((4, 8))  # (n, d_model)
params = init_multi_head(rng, 8)
h = 2
_, weights = multi_head_attention(X, X, params, h, return_weights=True)  # weights: (h, n, n)

tokens = [f"token {i}" for i in range(4)]
fig, axes = plt.subplots(1, h, figsize=(10, 4.2), layout="constrained")
for head, ax in enumerate(axes):
    image = ax.imshow(weights[head], cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(weights[head]):
        ax.text(j, i, f"{value:.3f}", ha="center", va="center", fontsize=10, color="white" if value > 0.6 else "black")
    ax.set_title(f"head {head}: its own weights (rows sum to 1)")
    ax.set_xticks(range(4), tokens)
    ax.set_yticks(range(4), tokens)
    ax.set_xlabel("key token")
    ax.set_ylabel("query token")
    ax.tick_params(length=0)
fig.colorbar(image, ax=axes, shrink=0.8, label="attention weight")
fig.savefig("two_heads.svg")
