import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, Rectangle

# The example of 03_qkv.py, drawn in the same order from the same seed; token 0 is followed.
rng = np.random.default_rng(1)
n, d_model, d_k = 4, 8, 4
X = rng.standard_normal((n, d_model))  # (n, d_model)
W = {name: rng.standard_normal((d_model, d_k)) / np.sqrt(d_model) for name in "QKV"}  # (d_model, d_k) each
x = X[0]  # (d_model,): one token
made = {name: x @ W[name] for name in W}  # (d_k,) each: its q, k and v
limit = max(np.abs(X).max(), *(np.abs(m).max() for m in made.values()))
colours = plt.get_cmap("RdBu_r")


def row(ax, x0, y, values, label):
    """One vector as a row of unit cells, each labelled with its value, its bottom at y."""
    for j, value in enumerate(values):
        shade = colours(0.5 + 0.5 * value / limit)
        ax.add_patch(Rectangle((x0 + j, y), 1, 1, facecolor=shade, edgecolor="black", linewidth=0.6))
        dark = abs(value) > 0.6 * limit
        ax.text(
            x0 + j + 0.5,
            y + 0.5,
            f"{value:.2f}",
            ha="center",
            va="center",
            fontsize=10,
            color="white" if dark else "black",
        )
    ax.text(x0 + len(values) / 2, y + 1.15, label, ha="center", va="bottom", fontsize=11)


def grid(ax, x0, y_top, matrix):
    """A weight matrix as an unlabelled grid of shaded cells, its top at y_top."""
    top = np.abs(matrix).max()
    for (i, j), value in np.ndenumerate(matrix):
        ax.add_patch(
            Rectangle(
                (x0 + j * 0.3, y_top - (i + 1) * 0.3),
                0.3,
                0.3,
                facecolor=colours(0.5 + 0.5 * value / top),
                edgecolor="white",
                linewidth=0.5,
            )
        )


# Stacked, not side by side, so that the cells' labels stay legible on a narrow screen.
fig, ax = plt.subplots(figsize=(4.6, 6.0), layout="constrained")
row(ax, 0, 10.6, x, f"token 0's row x {x.shape}")
names = {"Q": "query q", "K": "key k", "V": "value v"}
for b, name in enumerate(W):
    y_top = 9.6 - b * 3.4  # the top of this product's band
    ax.text(0.0, y_top - 1.2, f"x × $W^{name}$\n{W[name].shape}", ha="left", va="center", fontsize=11)
    grid(ax, 1.9, y_top, W[name])
    ax.add_patch(
        FancyArrowPatch((3.25, y_top - 1.2), (3.85, y_top - 1.2), arrowstyle="-|>", mutation_scale=14, color="black")
    )
    row(ax, 4.0, y_top - 1.7, made[name], f"{names[name]} {made[name].shape}")
ax.set_title("One token becomes a query, a key and a value:\nthe same row times three matrices", fontsize=12)
ax.set_xlim(-0.1, 8.1)
ax.set_ylim(y_top - 2.6, 12.2)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("token_qkv.svg", bbox_inches="tight", pad_inches=0.1)
