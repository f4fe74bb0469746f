import matplotlib.pyplot as plt
import numpy as np

from attn import softmax

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # tokens A, B, C
Q = K = V = X
scores = Q @ K.T
scaled = scores / np.sqrt(K.shape[-1])
weights = softmax(scaled)
out = weights @ V

tokens = ["A", "B", "C"]
panels = [
    ("1. scores  $QK^T$", scores, tokens, "Blues"),
    ("2. scale  $/\\sqrt{d_k}$", scaled, tokens, "Blues"),
    ("3. softmax (rows sum to 1)", weights, tokens, "Oranges"),
    ("4. mix  weights $\\times V$", out, ["dim 0", "dim 1"], "Greens"),
]
fig, axes = plt.subplots(1, 4, figsize=(12, 3.4), width_ratios=[3, 3, 3, 2], layout="constrained")
for ax, (title, matrix, columns, cmap) in zip(axes, panels, strict=True):
    top = max(1.0, matrix.max())
    ax.imshow(matrix, cmap=cmap, vmin=0, vmax=top)
    for (i, j), value in np.ndenumerate(matrix):
        label = f"{value:.3f}".rstrip("0").rstrip(".")
        colour = "white" if value > 0.6 * top else "black"  # contrast on dark cells
        ax.text(j, i, label, ha="center", va="center", fontsize=11, color=colour)
    ax.set_title(title, fontsize=11)
    ax.set_xticks(range(len(columns)), columns)
    ax.set_yticks(range(3), tokens)
    ax.tick_params(length=0)
axes[0].set_ylabel("query token")
for ax in axes[:3]:
    ax.set_xlabel("key token")
fig.savefig("four_steps.svg")
