import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from attn import encoder_layer, feed_forward, init_encoder_layer, layer_norm, multi_head_attention, pre_norm_layer

# One layer with random weights on an input that is not normalised; the stream is followed step by step.
rng = np.random.default_rng(0)
n, d_model, d_ff, h = 4, 8, 32, 2
x = 3 * rng.standard_normal((n, d_model))  # (n, d_model)
p = init_encoder_layer(rng, d_model, d_ff)


def attend(z):
    return multi_head_attention(z, z, p["self_attn"], h)  # (n, d_model)


post = [x]  # the paper's post-norm: LayerNorm(x + Sublayer(x)), twice
post.append(layer_norm(post[-1] + attend(post[-1]), **p["norm1"]))
post.append(layer_norm(post[-1] + feed_forward(post[-1], p["ffn"]), **p["norm2"]))
pre = [x]  # pre-norm: x + Sublayer(LayerNorm(x)), twice; the stream is only added to
pre.append(pre[-1] + attend(layer_norm(pre[-1], **p["norm1"])))
pre.append(pre[-1] + feed_forward(layer_norm(pre[-1], **p["norm2"]), p["ffn"]))
assert np.allclose(post[-1], encoder_layer(x, p, h)) and np.allclose(pre[-1], pre_norm_layer(x, p, h))

FONT = 12  # with 4-inch-wide panels, 10 pt or more on a 390 px phone
BOX_W, BOX_H = 2.3, 0.8


def box(ax, x0, y, text, colour):
    """A rounded box centred on (x0, y)."""
    ax.add_patch(
        FancyBboxPatch(
            (x0 - BOX_W / 2, y - BOX_H / 2),
            BOX_W,
            BOX_H,
            boxstyle="round,pad=0.05",
            facecolor=colour,
            edgecolor="black",
        )
    )
    ax.text(x0, y, text, ha="center", va="center", fontsize=FONT)


def arrow(ax, a, b, style="-|>"):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle=style, mutation_scale=13, color="black", shrinkA=0, shrinkB=0))


def std_label(ax, y, row):
    ax.text(-0.3, y, f"std {row.std():.2f}", ha="right", va="center", fontsize=FONT)


def draw(ax, title, stream, norm_on_stream):
    """One layer, the stream running up at x = 0, each sublayer on a branch to its right."""
    ax.set_title(title, fontsize=FONT + 1, weight="bold")
    ax.text(0, -0.05, "x", ha="center", va="top", fontsize=FONT)
    std_label(ax, 0.25, stream[0][0])
    y = 0.5
    for k, name in enumerate(("multi-head\nattention", "feed-forward")):
        branch, fork = 2.7, y + 0.2
        arrow(ax, (0, fork), (branch, fork), style="-")
        if norm_on_stream:  # post-norm: the sublayer alone on the branch
            box(ax, branch, fork + 0.85, name, "#d9e8f5")
            bottom, top = fork + 0.85 - BOX_H / 2, fork + 0.85 + BOX_H / 2
        else:  # pre-norm: LayerNorm, then the sublayer, on the branch
            box(ax, branch, fork + 0.75, "LayerNorm", "#fde2c4")
            box(ax, branch, fork + 1.85, name, "#d9e8f5")
            arrow(ax, (branch, fork + 0.75 + BOX_H / 2), (branch, fork + 1.85 - BOX_H / 2))
            bottom, top = fork + 0.75 - BOX_H / 2, fork + 1.85 + BOX_H / 2
        plus = top + 0.45
        arrow(ax, (branch, fork), (branch, bottom), style="-")
        arrow(ax, (branch, top), (branch, plus), style="-")
        arrow(ax, (0, y), (0, plus - 0.22))
        ax.add_patch(plt.Circle((0, plus), 0.22, facecolor="white", edgecolor="black"))
        ax.text(0, plus, "+", ha="center", va="center", fontsize=FONT)
        arrow(ax, (branch, plus), (0.22, plus))
        y = plus + 0.22
        if norm_on_stream:  # post-norm: a LayerNorm on the stream itself
            arrow(ax, (0, y), (0, y + 0.35))
            box(ax, 0, y + 0.35 + BOX_H / 2, "LayerNorm", "#fde2c4")
            y += 0.35 + BOX_H
        std_label(ax, y + 0.25, stream[k + 1][0])
        y += 0.1
    arrow(ax, (0, y), (0, y + 0.6))
    ax.text(0, y + 0.7, "to the next layer", ha="center", va="bottom", fontsize=FONT)
    ax.set_xlim(-1.9, 4.0)
    ax.set_ylim(-0.6, y + 1.2)
    ax.set_aspect("equal")
    ax.axis("off")
    return y + 1.8  # the height the panel spans


# Each layout its own figure, 4 inches wide, shown beside its own sentences: on a 390 px phone
# each fits on one screen and every label reads at 10 pt or more.
for name, title, stream, norm_on_stream in (
    ("post_norm", "post-norm (the paper)", post, True),
    ("pre_norm", "pre-norm (many later models)", pre, False),
):
    fig, ax = plt.subplots(figsize=(4.0, 6.0))
    top = draw(ax, title, stream, norm_on_stream)
    fig.set_size_inches(4.0, 4.0 * top / 5.9)  # the panel's own height, at equal aspect
    fig.savefig(f"{name}.svg", bbox_inches="tight", pad_inches=0.1)
    plt.close(fig)
