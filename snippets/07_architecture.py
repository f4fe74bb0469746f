import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

# The Transformer of Vaswani et al. (2017, Figure 1), redrawn: the encoder on the left, the
# decoder on the right, each a stack of N identical layers, inputs at the bottom.
colours = {"attention": "#fbd3a0", "ffn": "#bfe0f5", "norm": "#f3eeb0", "embed": "#f5c4c0", "out": "#d9cdef"}
box_w, box_h, norm_h = 3.2, 0.75, 0.5
fig, ax = plt.subplots(figsize=(9, 10), layout="constrained")


def box(x, y, text, kind, height=box_h):
    """A rounded box centred on x with its bottom at y -> its top."""
    ax.add_patch(
        FancyBboxPatch(
            (x - box_w / 2, y),
            box_w,
            height,
            boxstyle="round,pad=0.02,rounding_size=0.12",
            facecolor=colours[kind],
            edgecolor="black",
            linewidth=1,
        )
    )
    ax.text(x, y + height / 2, text, ha="center", va="center", fontsize=10.5)
    return y + height


def up(x, y0, y1):
    """An arrow from (x, y0) up to (x, y1)."""
    ax.add_patch(FancyArrowPatch((x, y0), (x, y1), arrowstyle="-|>", mutation_scale=12, color="black", linewidth=1))


def residual(x, y_from, y_to):
    """The residual path: from below a sublayer, around its left side, into its Add & Norm box."""
    left = x - box_w / 2 - 0.35
    ax.plot([x, left, left], [y_from, y_from, y_to], color="black", linewidth=1)
    ax.add_patch(
        FancyArrowPatch(
            (left, y_to), (x - box_w / 2, y_to), arrowstyle="-|>", mutation_scale=12, color="black", linewidth=1
        )
    )


def sublayer(x, y, text, kind, mask=None):
    """Sublayer, then Add & Norm, with the residual path around them -> the top of Add & Norm."""
    top = box(x, y + 0.35, text, kind)
    up(x, y, y + 0.35)
    up(x, top, top + 0.3)
    norm_top = box(x, top + 0.3, "Add & Norm", "norm", norm_h)
    residual(x, y + 0.15, top + 0.3 + norm_h / 2)
    if mask:
        ax.text(
            x + box_w / 2 + 0.15,
            y + 0.35 + box_h / 2,
            mask,
            ha="left",
            va="center",
            fontsize=9.5,
            style="italic",
            color="#333333",
        )
    return norm_top


def stack(x, y, parts):
    """N identical layers: the sublayers of one layer inside a frame labelled N×."""
    start = y
    for text, kind, mask in parts:
        y = sublayer(x, y, text, kind, mask)
    ax.add_patch(
        FancyBboxPatch(
            (x - box_w / 2 - 0.6, start - 0.1),
            box_w + 1.2,
            y - start + 0.3,
            boxstyle="round,pad=0.02,rounding_size=0.2",
            facecolor="none",
            edgecolor="#555555",
            linewidth=1.2,
            linestyle="--",
        )
    )
    ax.text(x - box_w / 2 - 0.75, start + 0.3, "N×", ha="right", va="center", fontsize=13, weight="bold")
    return y + 0.2


def positional(x, y):
    """Embedding plus positional encoding: a circled + with the encoding's label beside it."""
    ax.add_patch(plt.Circle((x, y + 0.2), 0.2, facecolor="white", edgecolor="black"))
    ax.text(x, y + 0.2, "+", ha="center", va="center", fontsize=13)
    ax.text(x + 0.35, y + 0.2, "positional\nencoding", ha="left", va="center", fontsize=9.5)
    return y + 0.4


enc_x, dec_x = 2.6, 9.6
# Encoder.
ax.text(enc_x, 0.0, "inputs (source tokens)", ha="center", va="center", fontsize=10.5)
up(enc_x, 0.2, 0.6)
y = box(enc_x, 0.6, "Input embedding", "embed")
up(enc_x, y, y + 0.3)
y = positional(enc_x, y + 0.3)
encoder_top = stack(
    enc_x,
    y + 0.35,
    [
        ("Multi-head self-attention", "attention", "mask: source padding"),
        ("Feed forward", "ffn", None),
    ],
)
# Decoder.
ax.text(dec_x, 0.0, "outputs so far, shifted right", ha="center", va="center", fontsize=10.5)
up(dec_x, 0.2, 0.6)
y = box(dec_x, 0.6, "Output embedding", "embed")
up(dec_x, y, y + 0.3)
y = positional(dec_x, y + 0.3)
cross_y = y + 0.35 + (0.35 + box_h + 0.3 + norm_h) + 0.35  # the bottom of the cross-attention box
decoder_top = stack(
    dec_x,
    y + 0.35,
    [
        ("Masked multi-head\nself-attention", "attention", "mask: causal\n+ target padding"),
        ("Multi-head\ncross-attention", "attention", "mask: source\npadding"),
        ("Feed forward", "ffn", None),
    ],
)
# The encoder's output is the keys and values of every decoder layer's cross-attention.
memory_y = encoder_top + 0.4
ax.plot([enc_x, enc_x], [encoder_top - 0.2, memory_y], color="black", linewidth=1)
ax.plot(
    [enc_x, dec_x - box_w / 2 - 1.0, dec_x - box_w / 2 - 1.0],
    [memory_y, memory_y, cross_y + box_h / 2],
    color="black",
    linewidth=1,
)
ax.add_patch(
    FancyArrowPatch(
        (dec_x - box_w / 2 - 1.0, cross_y + box_h / 2),
        (dec_x - box_w / 2, cross_y + box_h / 2),
        arrowstyle="-|>",
        mutation_scale=12,
        color="black",
        linewidth=1,
    )
)
ax.text(
    (enc_x + dec_x) / 2 - 0.6,
    memory_y + 0.15,
    "encoder output: keys and values\nof every cross-attention",
    ha="center",
    va="bottom",
    fontsize=9.5,
)
# Output head.
up(dec_x, decoder_top - 0.2, decoder_top + 0.2)
y = box(dec_x, decoder_top + 0.2, "Linear", "out", norm_h)
up(dec_x, y, y + 0.3)
y = box(dec_x, y + 0.3, "Softmax", "out", norm_h)
up(dec_x, y, y + 0.4)
ax.text(dec_x, y + 0.6, "next-token probabilities", ha="center", va="center", fontsize=10.5)
ax.text(enc_x, encoder_top + 0.05, "Encoder", ha="center", va="bottom", fontsize=12, weight="bold")
ax.text(dec_x + box_w / 2 + 0.8, decoder_top - 0.4, "Decoder", ha="left", va="top", fontsize=12, weight="bold")

ax.set_xlim(-0.2, 13.4)
ax.set_ylim(-0.4, y + 1.0)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("architecture.svg", bbox_inches="tight", pad_inches=0.1)
