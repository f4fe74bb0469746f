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
    ("2. scale  / √$d_k$", scaled, tokens, "Blues"),  # √ a character: it draws in every browser
    ("3. softmax\n(rows sum to 1)", weights, tokens, "Oranges"),
    ("4. mix\nweights $\\times V$", out, ["dim 0", "dim 1"], "Greens"),
]
# Two by two, 4.4 inches wide with 12.5 pt text: shown 342 px wide on a 390 px phone, every
# label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, axes = plt.subplots(2, 2, figsize=(4.4, 5.6), layout="constrained")
for ax, (title, matrix, columns, cmap) in zip(axes.flat, panels, strict=True):
    top = max(1.0, matrix.max())
    ax.imshow(matrix, cmap=cmap, vmin=0, vmax=top)
    for (i, j), value in np.ndenumerate(matrix):
        label = f"{value:.3f}".rstrip("0").rstrip(".")
        colour = "white" if value > 0.6 * top else "black"  # contrast on dark cells
        ax.text(j, i, label, ha="center", va="center", color=colour)
    ax.set_title(title, fontsize=12.5)
    ax.set_xticks(range(len(columns)), columns)
    ax.set_yticks(range(3), tokens)
    ax.tick_params(length=0)
for ax in axes[:, 0]:
    ax.set_ylabel("query token")
for ax in [*axes[0], axes[1, 0]]:
    ax.set_xlabel("key token")
fig.savefig("four_steps.svg")
