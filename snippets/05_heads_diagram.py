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
# The axes are measured in inches, so that sizes and fonts read at the figure's own size: one
# column of small matrices, their names on the left and each step's name on the right.
fig_w, fig_h = 4.8, 6.0
cell, gap, step = 0.12, 0.15, 0.32  # a cell's side, the gap between heads, the height of an arrow
width = d_model * cell + (h - 1) * gap  # the widest row: the heads side by side
x0 = 1.65  # the left edge of the widest row
centre, right = x0 + width / 2, x0 + width + 0.15


def matrix(ax, y, columns, label):
    """One row of the diagram: n rows of cells, coloured column by column, its top at y."""
    x = x0 + (width - len(columns) * cell - (gap if None in columns else 0)) / 2
    for colour in columns:
        if colour is None:  # the space between two heads
            x += gap
            continue
        for i in range(n):
            ax.add_patch(
                Rectangle((x, y - (i + 1) * cell), cell, cell, facecolor=colour, edgecolor="white", linewidth=0.8)
            )
        x += cell
    ax.text(x0 - 0.12, y - n * cell / 2, label, ha="right", va="center", fontsize=11.5)
    return y - n * cell


def arrow(ax, y, text):
    """A downward arrow below y, its label to the right of the matrices."""
    ax.add_patch(
        FancyArrowPatch(
            (centre, y - 0.04), (centre, y - step + 0.04), arrowstyle="-|>", mutation_scale=12, color="black"
        )
    )
    ax.text(right, y - step / 2, text, ha="left", va="center", fontsize=11)
    return y - step


# Short labels in narrow lines, so that the diagram reads on a phone; the square root is written
# as a character, not typeset, so that it draws the same in every browser.
full = [head_colours[j // d_k] for j in range(d_model)]  # column j of a full-width matrix belongs to head j // d_k
split = [head_colours[0]] * d_k + [None] + [head_colours[1]] * d_k
fig = plt.figure(figsize=(fig_w, fig_h))
ax = fig.add_axes((0, 0, 1, 1))
title = f"n = {n}, $d_{{model}}$ = {d_model}, h = {h}, $d_k$ = {d_k}"
ax.text(fig_w / 2, fig_h - 0.08, title, ha="center", va="top", fontsize=12)
y = matrix(ax, fig_h - 0.45, [grey] * d_model, f"X (n, $d_{{model}}$)\n= {X.shape}")
for head, colour in enumerate(head_colours):  # the key, beside X
    ax.add_patch(Rectangle((right, y + 0.33 - head * 0.22), 0.14, 0.14, facecolor=colour))
    ax.text(right + 0.22, y + 0.4 - head * 0.22, f"head {head}", va="center", fontsize=11)
y = arrow(ax, y, f"× $W^Q$, $W^K$, $W^V$ {params['W_q'].shape}")
y = matrix(ax, y, full, f"Q (n, $d_{{model}}$)\n= {Q.shape}\n(K, V alike)")
y = arrow(ax, y, f"split_heads: columns\n0–{d_k - 1} to head 0,\n{d_k}–{d_model - 1} to head 1")
y = matrix(ax, y, split, f"$Q_h$ (h, n, $d_k$)\n= {Q_h.shape}")
y = arrow(ax, y, "each head on its own:\nsoftmax($Q_h K_h^T$ / √$d_k$)")
per_head = [head_colours[0]] * n + [None] + [head_colours[1]] * n  # n key columns per head
y = matrix(ax, y, per_head, f"weights (h, n, n)\n= {weights.shape}:\nn × n per head")
y = arrow(ax, y, "× $V_h$: each head\nmixes its own values")
y = matrix(ax, y, split, f"heads (h, n, $d_v$)\n= {heads.shape}")
y = arrow(ax, y, "merge_heads:\nside by side again")
y = matrix(ax, y, full, f"concat (n, h·$d_v$)\n= {concat.shape}")
y = arrow(ax, y, f"× $W^O$ {params['W_o'].shape}:\nevery output column\nmixes both heads")
y = matrix(ax, y, [mixed] * d_model, f"out (n, $d_{{model}}$)\n= {out.shape}")
assert y > 0.1, "the diagram must fit the figure"
ax.set_xlim(0, fig_w)
ax.set_ylim(0, fig_h)
ax.axis("off")
fig.savefig("heads.svg")
