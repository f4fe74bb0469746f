import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

# One decoder layer of 2017 (post-norm, no cross-attention: a decoder-only stack) beside one
# Llama 2 layer. Input at the bottom; the residual path is the line on the left of each sublayer.
colours = {"attention": "#fbd3a0", "ffn": "#bfe0f5", "norm": "#f3eeb0", "add": "#ffffff", "pos": "#f5c4c0"}
box_w, box_h = 3.6, 0.62
fig, ax = plt.subplots(figsize=(9, 6.4), layout="constrained")


def box(x, y, text, kind):
    """A rounded box centred on x with its bottom at y -> its top."""
    ax.add_patch(
        FancyBboxPatch(
            (x - box_w / 2, y),
            box_w,
            box_h,
            boxstyle="round,pad=0.02,rounding_size=0.1",
            facecolor=colours[kind],
            edgecolor="black",
            linewidth=1,
        )
    )
    ax.text(x, y + box_h / 2, text, ha="center", va="center", fontsize=10)
    return y + box_h


def up(x, y0, y1):
    """An arrow from (x, y0) up to (x, y1)."""
    ax.add_patch(FancyArrowPatch((x, y0), (x, y1), arrowstyle="-|>", mutation_scale=11, color="black"))


def around(x, y_from, y_to):
    """The residual path: from below, around the left side, into the addition at y_to."""
    left = x - box_w / 2 - 0.4
    ax.plot([x, left, left], [y_from, y_from, y_to], color="#1f5fa8", linewidth=1.6)
    ax.add_patch(
        FancyArrowPatch(
            (left, y_to), (x - box_w / 2, y_to), arrowstyle="-|>", mutation_scale=11, color="#1f5fa8", linewidth=1.6
        )
    )


def layer(x, title, steps):
    """Stack the boxes of one layer; a step ("around", i) starts a residual path at step i."""
    ax.text(x, 7.7, title, ha="center", va="center", fontsize=11.5, weight="bold")
    ax.text(x, 0.05, "x (from the layer below)", ha="center", va="center", fontsize=9.5)
    y, starts = 0.3, {}
    for index, (text, kind, residual_from) in enumerate(steps):
        up(x, y, y + 0.3)
        starts[index] = y + 0.15
        bottom = y + 0.3
        y = box(x, bottom, text, kind)
        if residual_from is not None:
            around(x, starts[residual_from], bottom + box_h / 2)
    up(x, y, y + 0.35)
    ax.text(x, y + 0.5, "to the layer above", ha="center", va="center", fontsize=9.5)


layer(
    2.6,
    "2017: post-norm",
    [
        ("Masked multi-head attention", "attention", None),
        ("Add, then LayerNorm", "norm", 0),
        ("FFN: ReLU, d_ff = 4 d_model", "ffn", None),
        ("Add, then LayerNorm", "norm", 2),
    ],
)
layer(
    8.4,
    "Llama 2: pre-norm",
    [
        ("RMSNorm", "norm", None),
        ("RoPE on q, k; grouped-query attention", "attention", None),
        ("Add", "add", 0),
        ("RMSNorm", "norm", None),
        ("SwiGLU FFN, d_ff ≈ 8/3 d_model", "ffn", None),
        ("Add", "add", 3),
    ],
)
ax.text(2.6, 5.0, "positions: added once,\nbelow the first layer", ha="center", fontsize=9, style="italic")
ax.text(8.4, 6.85, "final RMSNorm after the last layer", ha="center", fontsize=9, style="italic")
ax.set_xlim(0, 11)
ax.set_ylim(-0.3, 8.0)
ax.axis("off")
fig.savefig("blocks.svg")
