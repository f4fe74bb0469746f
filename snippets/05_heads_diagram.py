import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, Rectangle

from attn import init_multi_head, merge_heads, scaled_dot_product_attention, split_heads

# The example of 05_batched.py, run step by step so that every shape drawn is a shape computed.
rng = np.random.default_rng(1)
n, d_model, h = 4, 8, 2
X = rng.standard_normal((n, d_model))  # (n, d_model)
params = init_multi_head(rng, d_model)
Q, K, V = (X @ params[name] for name in ("W_q", "W_k", "W_v"))  # (n, d_model) each
Q_h, K_h, V_h = split_heads(Q, h), split_heads(K, h), split_heads(V, h)  # (h, n, d_k) each
heads, weights = scaled_dot_product_attention(Q_h, K_h, V_h, return_weights=True)  # (h, n, d_v), (h, n, n)
concat = merge_heads(heads)  # (n, h * d_v)
out = concat @ params["W_o"]  # (n, d_model)
d_k = Q_h.shape[-1]

head_colours = ["#4c8bc9", "#f0a04b"]  # head 0, head 1 (also told apart by place and label)
grey, mixed = "#bdbdbd", "#8e7cc3"
cell, gap, step = 0.4, 0.6, 1.9  # a cell's side, the gap between heads, the height of an arrow
width = d_model * cell + (h - 1) * gap  # the widest row: the heads side by side


def matrix(ax, y, columns, label):
    """One row of the diagram: n rows of cells, coloured column by column, its top at y."""
    x = (width - len(columns) * cell - (gap if None in columns else 0)) / 2
    for colour in columns:
        if colour is None:  # the space between two heads
            x += gap
            continue
        for i in range(n):
            ax.add_patch(
                Rectangle((x, y - (i + 1) * cell), cell, cell, facecolor=colour, edgecolor="white", linewidth=1.2)
            )
        x += cell
    ax.text(-0.3, y - n * cell / 2, label, ha="right", va="center", fontsize=11.5)
    return y - n * cell


def arrow(ax, y, text):
    """A downward arrow below y, its label to the right."""
    ax.add_patch(
        FancyArrowPatch(
            (width / 2, y - 0.15), (width / 2, y - step + 0.15), arrowstyle="-|>", mutation_scale=16, color="black"
        )
    )
    ax.text(width / 2 + 0.25, y - step / 2, text, ha="left", va="center", fontsize=11)
    return y - step


# Short labels in narrow lines, so that the diagram reads on a phone; the square root is written
# as a character, not typeset, so that it draws the same in every browser.
full = [head_colours[j // d_k] for j in range(d_model)]  # column j of a full-width matrix belongs to head j // d_k
split = [head_colours[0]] * d_k + [None] + [head_colours[1]] * d_k
fig, ax = plt.subplots(figsize=(4.6, 11), layout="constrained")
y = matrix(ax, 0, [grey] * d_model, f"X {X.shape}")
y = arrow(ax, y, f"× $W^Q$, $W^K$, $W^V$,\neach {params['W_q'].shape}")
y = matrix(ax, y, full, f"Q {Q.shape}\n(K, V alike)")
y = arrow(ax, y, f"split_heads: columns\n0–{d_k - 1} to head 0,\n{d_k}–{d_model - 1} to head 1")
y = matrix(ax, y, split, f"$Q_h$ {Q_h.shape}")
y = arrow(ax, y, "each head on its own:\nsoftmax($Q_h K_h^T$ / √$d_k$)")
y = matrix(ax, y, [head_colours[0]] * n + [None] + [head_colours[1]] * n, f"weights\n{weights.shape}:\nn × n per head")
y = arrow(ax, y, "× $V_h$: each head\nmixes its own values")
y = matrix(ax, y, split, f"heads\n{heads.shape}")
y = arrow(ax, y, "merge_heads:\nside by side again")
y = matrix(ax, y, full, f"concat\n{concat.shape}")
y = arrow(ax, y, f"× $W^O$ {params['W_o'].shape}:\nevery output column\nmixes both heads")
y = matrix(ax, y, [mixed] * d_model, f"out {out.shape}")
for head, colour in enumerate(head_colours):
    ax.add_patch(Rectangle((-2.4 + head * 2.6, y - 0.9), 0.35, 0.35, facecolor=colour))
    ax.text(-1.9 + head * 2.6, y - 0.72, f"head {head}", va="center", fontsize=11)
ax.set_title(f"Multi-head attention:\nn = {n}, $d_{{model}}$ = {d_model}, h = {h}, $d_k$ = {d_k}", fontsize=12)
ax.set_xlim(-2.6, width + 3.4)
ax.set_ylim(y - 1.2, 0.2)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("heads.svg", bbox_inches="tight", pad_inches=0.1)
