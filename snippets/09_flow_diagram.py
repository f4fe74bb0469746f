import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from attn import Config, encode, forward, forward_decoder_only, init_decoder_only, init_transformer

# The sizes and inputs of the page's worked examples, 09_forward.py (a batch of two sentence
# pairs) and 09_decoder_only.py (one sequence); one forward pass of each gives every shape drawn.
config = Config(vocab=12, d_model=16, h=2, d_ff=32, N=2, pad=0)
rng = np.random.default_rng(0)
source = np.array([[5, 7, 2, 9, 4], [8, 3, 6, 0, 0]])  # (2, 5), 0 pads
target_in = np.array([[1, 6, 6, 3], [1, 9, 5, 0]])  # (2, 4): the target shifted right
both = init_transformer(rng, config)
memory = encode(both, source, config)  # (2, 5, d_model)
logits = forward(both, source, target_in, config)  # (2, 4, vocab)
tokens = np.array([[1, 5, 7, 2, 9, 4]])  # (1, 6): one sequence holds prompt and continuation
only = init_decoder_only(rng, config)
logits_only = forward_decoder_only(only, tokens, config)  # (1, 6, vocab)


# Drawn in inches, 4.3 wide with 12.2 pt text: shown 342 px wide on a 390 px phone, every label
# reads at 10 pt or more. The encoder-decoder on top, the decoder-only below it.
size, line = 12.2, 12.2 * 1.2 / 72  # font size (pt) and the height of one line of it (inches)
width = 4.3


def box(ax, x, y, text, colour, box_w):
    """A rounded box centred on x with its bottom at y -> its top."""
    height = (text.count("\n") + 1) * line + 0.12
    ax.add_patch(
        FancyBboxPatch(
            (x - box_w / 2, y), box_w, height, boxstyle="round,pad=0.03", facecolor=colour, edgecolor="black"
        )
    )
    ax.text(x, y + height / 2, text, ha="center", va="center", fontsize=size, linespacing=1.05)
    return y + height


def arrow(ax, a, b, label=""):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=13, color="black", shrinkA=3, shrinkB=3))
    if label:
        ax.text(a[0] + 0.1, (a[1] + b[1]) / 2, label, ha="left", va="center", fontsize=size)


def up(ax, x, y, text, colour, box_w, label="", rise=0.3):
    """An arrow rising from y (with the shape it carries), then a box -> the box's top."""
    arrow(ax, (x, y), (x, y + rise), label)
    return box(ax, x, y + rise, text, colour, box_w)


blue, orange, green, grey = "#d9e8f5", "#fde2c4", "#dcefd8", "#eeeeee"
fig = plt.figure(figsize=(width, 10))
ax = fig.add_axes((0, 0, 1, 1))
enc_x, dec_x, only_x = 1.0, 3.2, width / 2

# Decoder-only, at the bottom, with the note that holds for both.
ax.text(
    0.05,
    0.05,
    f"One forward pass of each, $d_{{model}}$ = {config.d_model},\nvocabulary {config.vocab}: row i of the logits\n"
    "predicts the token after position i.",
    fontsize=size,
    va="bottom",
    linespacing=1.1,
)
y = box(ax, only_x, 0.85, f"prompt and continuation {tokens.shape}", grey, 3.4)
y = up(ax, only_x, y, "embed + positions", grey, 2.2)
y = up(
    ax,
    only_x,
    y,
    f"decoder-only layer × {config.N}\nmasked self-attention,\nfeed-forward",
    orange,
    2.6,
    f"({tokens.shape[0]}, {tokens.shape[1]}, {config.d_model})",
    rise=0.45,
)
y = up(ax, only_x, y, f"logits {logits_only.shape}", green, 2.2)
ax.text(width / 2, y + 0.08, "decoder-only (GPT)", ha="center", va="bottom", fontsize=13, weight="bold")
split = y + 0.45
ax.plot([0.05, width - 0.05], [split, split], color="#999999", linewidth=0.8)

# Encoder-decoder, on top.
y0 = split + 0.15
y = box(ax, enc_x, y0, f"source ids\n{source.shape}", grey, 1.8)
y = up(ax, enc_x, y, "embed +\npositions", grey, 1.8)
encoder_top = up(
    ax,
    enc_x,
    y,
    f"encoder × {config.N}\nself-attention,\nfeed-forward",
    blue,
    1.8,
    f"({source.shape[0]}, {source.shape[1]}, {config.d_model})",
    rise=0.45,
)
encoder_mid = (y + 0.45 + encoder_top) / 2
y = box(ax, dec_x, y0, f"target, shifted\nright {target_in.shape}", grey, 2.0)
y = up(ax, dec_x, y, "embed +\npositions", grey, 2.0)
decoder_bottom = y + 0.45
y = up(
    ax,
    dec_x,
    y,
    f"decoder × {config.N}\nmasked\nself-attention,\ncross-attention,\nfeed-forward",
    orange,
    2.0,
    f"({target_in.shape[0]}, {target_in.shape[1]}, {config.d_model})",
    rise=0.45,
)
arrow(ax, (enc_x + 0.93, encoder_mid), (dec_x - 1.03, encoder_mid))
ax.text(
    0.05,
    encoder_top + 0.15,
    f"memory {memory.shape}:\nkeys and values\nof every\ncross-attention",
    va="bottom",
    fontsize=size,
    linespacing=1.05,
)
y = up(ax, dec_x, y, f"logits\n{logits.shape}", green, 2.0)
ax.text(width / 2, y + 0.08, "encoder-decoder (the paper)", ha="center", va="bottom", fontsize=13, weight="bold")

height = y + 0.4
fig.set_size_inches(width, height)
ax.set_xlim(0, width)
ax.set_ylim(0, height)
ax.axis("off")
fig.savefig("flow.svg")
