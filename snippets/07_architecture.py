import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

# The Transformer of Vaswani et al. (2017, Figure 1), redrawn: the encoder on the left, the
# decoder on the right, each a stack of N identical layers, inputs at the bottom. Drawn in inches,
# 4.35 wide with 12.3 pt text: shown 342 px wide on a 390 px phone, every label reads at 10 pt.
colours = {"attention": "#fbd3a0", "ffn": "#bfe0f5", "norm": "#f3eeb0", "embed": "#f5c4c0", "out": "#d9cdef"}
size, line = 12.3, 12.3 * 1.25 / 72  # font size (pt) and the height of one line of it (inches)
box_w, width = 1.62, 4.35
enc_x, dec_x = 0.33 + box_w / 2, width - 0.12 - box_w / 2
fig = plt.figure(figsize=(width, 10))
ax = fig.add_axes((0, 0, 1, 1))


def arrow(start, end):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12, color="black", linewidth=1))


def box(x, y, text, kind, mask=None):
    """A rounded box centred on x with its bottom at y, its mask (if any) in italics under the
    name -> its top, and the height of the middle of its name."""
    lines = text.count("\n") + 1 + (mask.count("\n") + 1 if mask else 0)
    height = lines * line + 0.12
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
    top = y + height
    name_lines = text.count("\n") + 1
    name_y = top - 0.07 - name_lines * line / 2
    ax.text(x, name_y, text, ha="center", va="center", fontsize=size, linespacing=1.1)
    if mask:
        ax.text(
            x,
            y + 0.07 + (lines - name_lines) * line / 2,
            mask,
            ha="center",
            va="center",
            fontsize=size,
            style="italic",
            color="#333333",
            linespacing=1.1,
        )
    return top, name_y


def sublayer(x, y, text, kind, mask=None):
    """Sublayer, then Add & Norm, with the residual arrow around them -> the top of Add & Norm,
    and the height of the middle of the sublayer's name."""
    arrow((x, y), (x, y + 0.25))
    top, name_y = box(x, y + 0.25, text, kind, mask)
    arrow((x, top), (x, top + 0.16))
    norm_top, _ = box(x, top + 0.16, "Add & Norm", "norm")
    left, join = x - box_w / 2 - 0.14, top + 0.16 + line / 2 + 0.06
    ax.plot([x, left, left], [y + 0.12, y + 0.12, join], color="black", linewidth=1)
    arrow((left, join), (x - box_w / 2, join))
    return norm_top, name_y


def stack(x, y, parts):
    """N identical layers: the sublayers of one layer inside a dashed frame marked N× -> the
    frame's top, and the height of the middle of each sublayer's name."""
    start, names = y, []
    for text, kind, mask in parts:
        y, name_y = sublayer(x, y, text, kind, mask)
        names.append(name_y)
    top = y + 0.1
    ax.add_patch(
        FancyBboxPatch(
            (x - box_w / 2 - 0.25, start - 0.05),
            box_w + 0.33,
            top - start + 0.05,
            boxstyle="round,pad=0.0,rounding_size=0.1",
            facecolor="none",
            edgecolor="#555555",
            linewidth=1.2,
            linestyle="--",
        )
    )
    ax.text(x + box_w / 2, start + 0.14, "N×", ha="right", va="center", fontsize=13, weight="bold")
    return top, names


def column(x, inputs, embedding):
    """Inputs, then their embedding plus the positional encoding -> where the stack starts."""
    ax.text(x, 0.05, inputs, ha="center", va="bottom", fontsize=size, linespacing=1.1)
    arrow((x, 0.1 + 2 * line), (x, 0.3 + 2 * line))
    y, _ = box(x, 0.3 + 2 * line, embedding, "embed")
    arrow((x, y), (x, y + 0.2))
    ax.add_patch(plt.Circle((x, y + 0.32), 0.12, facecolor="white", edgecolor="black"))
    ax.text(x, y + 0.32, "+", ha="center", va="center", fontsize=13)
    return y + 0.55


y = column(enc_x, "inputs\n(source tokens)", "Input\nembedding")
encoder_top, _ = stack(
    enc_x,
    y,
    [("Self-attention", "attention", "mask: source\npadding"), ("Feed forward", "ffn", None)],
)
y = column(dec_x, "outputs so far,\nshifted right", "Output\nembedding")
decoder_top, (_, cross_y, _) = stack(
    dec_x,
    y,
    [
        ("Masked\nself-attention", "attention", "mask: causal\n+ target padding"),
        ("Cross-attention", "attention", "mask: source\npadding"),
        ("Feed forward", "ffn", None),
    ],
)
# One positional encoding, added to both embeddings.
plus_y = y - 0.55 + 0.32
ax.text((enc_x + dec_x) / 2, plus_y, "positional\nencoding", ha="center", va="center", fontsize=size, linespacing=1.1)
arrow(((enc_x + dec_x) / 2 - 0.5, plus_y), (enc_x + 0.12, plus_y))
arrow(((enc_x + dec_x) / 2 + 0.5, plus_y), (dec_x - 0.12, plus_y))
# The encoder's output is the keys and values of every decoder layer's cross-attention.
memory_y, lane = encoder_top + 0.3, (enc_x + box_w / 2 + dec_x - box_w / 2) / 2 - 0.04
ax.plot([enc_x, enc_x, lane, lane], [encoder_top - 0.1, memory_y, memory_y, cross_y], color="black", linewidth=1)
arrow((lane, cross_y), (dec_x - box_w / 2, cross_y))
ax.text(
    enc_x - box_w / 2 - 0.25,
    memory_y + 0.1,
    "encoder output:\nkeys and values\nof every\ncross-attention",
    fontsize=size,
    ha="left",
    va="bottom",
    linespacing=1.1,
)
ax.text(enc_x - box_w / 2 - 0.25, encoder_top + 0.04, "Encoder", ha="left", va="bottom", fontsize=13, weight="bold")
# Output head.
arrow((dec_x, decoder_top - 0.1), (dec_x, decoder_top + 0.3))
y, _ = box(dec_x, decoder_top + 0.3, "Linear", "out")
arrow((dec_x, y), (dec_x, y + 0.16))
y, _ = box(dec_x, y + 0.16, "Softmax", "out")
arrow((dec_x, y), (dec_x, y + 0.25))
ax.text(dec_x, y + 0.28, "next-token\nprobabilities", ha="center", va="bottom", fontsize=size, linespacing=1.1)
ax.text(0.08, y, "Each attention\nbox is multi-head:\nh heads.", ha="left", va="top", fontsize=size, linespacing=1.1)
ax.text(dec_x - box_w / 2 - 0.25, decoder_top + 0.04, "Decoder", ha="left", va="bottom", fontsize=13, weight="bold")

height = y + 0.35 + 2 * line
fig.set_size_inches(width, height)
ax.set_xlim(0, width)
ax.set_ylim(0, height)
ax.axis("off")
fig.savefig("architecture.svg")
