import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, Rectangle

# The example of 03_qkv.py, drawn in the same order from the same seed; token 0 is followed.
rng = np.random.default_rng(1)
n, d_model, d_k = 4, 8, 4
X = rng.standard_normal((n, d_model))  # (n, d_model)
W = {name: rng.standard_normal((d_model, d_k)) for name in ("Q", "K", "V")}  # (d_model, d_k) each
x = X[0]  # (d_model,): one token
made = {name: x @ W[name] for name in W}  # (d_k,) each: its q, k and v
limit = max(np.abs(X).max(), *(np.abs(m).max() for m in made.values()))
colours = plt.get_cmap("RdBu_r")


def row(ax, x0, y, values, label):
    """One vector as a row of cells, each labelled with its value."""
    for j, value in enumerate(values):
        shade = colours(0.5 + 0.5 * value / limit)
        ax.add_patch(Rectangle((x0 + j, y), 1, 1, facecolor=shade, edgecolor="black", linewidth=0.6))
        ax.text(
            x0 + j + 0.5,
            y + 0.5,
            f"{value:.2f}",
            ha="center",
            va="center",
            fontsize=8.5,
            color="white" if abs(value) > 0.6 * limit else "black",
        )
    ax.text(x0 - 0.3, y + 0.5, label, ha="right", va="center", fontsize=11)


def grid(ax, x0, y_top, matrix):
    """A weight matrix as an unlabelled grid of shaded cells, its top at y_top."""
    top = np.abs(matrix).max()
    for (i, j), value in np.ndenumerate(matrix):
        ax.add_patch(
            Rectangle(
                (x0 + j * 0.5, y_top - (i + 1) * 0.5),
                0.5,
                0.5,
                facecolor=colours(0.5 + 0.5 * value / top),
                edgecolor="white",
                linewidth=0.5,
            )
        )


fig, ax = plt.subplots(figsize=(10, 6.2), layout="constrained")
row(ax, 4.5, 8, x, f"token 0's row x\n(1, {d_model})")
names = {"Q": "query q", "K": "key k", "V": "value v"}
for b, name in enumerate(W):
    x0 = 0.8 + b * 5.2
    ax.add_patch(FancyArrowPatch((8.5, 7.9), (x0 + 1, 6.6), arrowstyle="-|>", mutation_scale=14, color="black"))
    grid(ax, x0, 6.4, W[name])
    ax.text(x0 + 2.3, 4.4, f"× $W^{name}$ {W[name].shape}", ha="left", va="center", fontsize=10.5)
    ax.add_patch(FancyArrowPatch((x0 + 1, 2.3), (x0 + 1, 1.5), arrowstyle="-|>", mutation_scale=14, color="black"))
    row(ax, x0 - 1.2 + 0.7, 0.2, made[name], "")
    ax.text(x0 + 1, -0.4, f"{names[name]} {made[name].shape}", ha="center", va="center", fontsize=11)
ax.set_title("One token becomes a query, a key and a value: the same row times three learned matrices")
ax.set_xlim(-2.5, 16.5)
ax.set_ylim(-0.9, 9.3)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("token_qkv.svg", bbox_inches="tight", pad_inches=0.1)
