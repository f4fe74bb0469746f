import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

# One decoder layer of 2017 (post-norm, no cross-attention: a decoder-only stack) beside one
# Llama 2 layer. Input at the bottom; the residual path is the line on the left of each sublayer.
colours = {"attention": "#fbd3a0", "ffn": "#bfe0f5", "norm": "#f3eeb0", "add": "#ffffff", "pos": "#f5c4c0"}
# Drawn in inches, 4.3 wide with 12.2 pt text: shown 342 px wide on a 390 px phone, every label
# reads at 10 pt or more.
size, line = 12.2, 12.2 * 1.2 / 72  # font size (pt) and the height of one line of it (inches)
box_w, width = 1.64, 4.3
fig = plt.figure(figsize=(width, 10))
ax = fig.add_axes((0, 0, 1, 1))


def box(x, y, text, kind):
    """A rounded box centred on x with its bottom at y -> its top and its middle."""
    height = (text.count("\n") + 1) * line + 0.14
    ax.add_patch(
        FancyBboxPatch(
            (x - box_w / 2, y),
            box_w,
            height,
            boxstyle="round,pad=0.02,rounding_size=0.08",
            facecolor=colours[kind],
            edgecolor="black",
            linewidth=1,
        )
    )
    ax.text(x, y + height / 2, text, ha="center", va="center", fontsize=size, linespacing=1.05)
    return y + height, y + height / 2


def up(x, y0, y1):
    """An arrow from (x, y0) up to (x, y1)."""
    ax.add_patch(FancyArrowPatch((x, y0), (x, y1), arrowstyle="-|>", mutation_scale=11, color="black"))


def around(x, y_from, y_to):
    """The residual path: from below, around the left side, into the addition at y_to."""
    left = x - box_w / 2 - 0.17
    ax.plot([x, left, left], [y_from, y_from, y_to], color="#1f5fa8", linewidth=1.6)
    ax.add_patch(
        FancyArrowPatch(
            (left, y_to), (x - box_w / 2, y_to), arrowstyle="-|>", mutation_scale=11, color="#1f5fa8", linewidth=1.6
        )
    )


def layer(x, steps):
    """Stack the boxes of one layer; a step ("around", i) starts a residual path at step i -> the
    top of its last arrow."""
    ax.text(x, 0.05, "x (from the\nlayer below)", ha="center", va="bottom", fontsize=size, linespacing=1.05)
    y, starts = 0.15 + 2 * line, {}
    for index, (text, kind, residual_from) in enumerate(steps):
        up(x, y, y + 0.26)
        starts[index] = y + 0.1
        y, middle = box(x, y + 0.26, text, kind)
        if residual_from is not None:
            around(x, starts[residual_from], middle)
    up(x, y, y + 0.3)
    ax.text(x, y + 0.33, "to the layer above", ha="center", va="bottom", fontsize=size)
    return y + 0.33 + line


left_x, right_x = 0.22 + box_w / 2, width - 0.1 - box_w / 2
left_top = layer(
    left_x,
    [
        ("Masked multi-head\nattention", "attention", None),
        ("Add, then\nLayerNorm", "norm", 0),
        ("FFN: ReLU,\nd_ff = 4 d_model", "ffn", None),
        ("Add, then\nLayerNorm", "norm", 2),
    ],
)
right_top = layer(
    right_x,
    [
        ("RMSNorm", "norm", None),
        ("RoPE on q, k;\ngrouped-query\nattention", "attention", None),
        ("Add", "add", 0),
        ("RMSNorm", "norm", None),
        ("SwiGLU FFN, d_ff\n≈ 8/3 d_model", "ffn", None),
        ("Add", "add", 3),
    ],
)
ax.text(
    left_x,
    left_top + 0.15,
    "positions: added\nonce, below the\nfirst layer",
    ha="center",
    va="bottom",
    fontsize=size,
    style="italic",
    linespacing=1.05,
)
ax.text(
    right_x,
    right_top + 0.15,
    "final RMSNorm after\nthe last layer",
    ha="center",
    va="bottom",
    fontsize=size,
    style="italic",
    linespacing=1.05,
)
top = right_top + 0.25 + 2 * line
for x, title in ((left_x, "2017: post-norm"), (right_x, "Llama 2: pre-norm")):
    ax.text(x, top + 0.1, title, ha="center", va="bottom", fontsize=12.5, weight="bold")
height = top + 0.45
fig.set_size_inches(width, height)
ax.set_xlim(0, width)
ax.set_ylim(0, height)
ax.axis("off")
fig.savefig("blocks.svg")
