import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from attn import Config, encode, forward, forward_decoder_only, init_decoder_only, init_transformer

# The sizes of 09_decoder_only.py; one forward pass of each kind gives every shape drawn.
config = Config(vocab=12, d_model=16, h=2, d_ff=32, N=2, pad=0)
rng = np.random.default_rng(0)
source, target_in = np.array([[3, 8, 5, 2, 7]]), np.array([[1, 4, 6, 9]])  # (1, 5), (1, 4)
both = init_transformer(rng, config)
memory = encode(both, source, config)  # (1, 5, d_model)
logits = forward(both, source, target_in, config)  # (1, 4, vocab)
tokens = np.concatenate([source, target_in], axis=1)  # (1, 9): one sequence holds it all
only = init_decoder_only(rng, config)
logits_only = forward_decoder_only(only, tokens, config)  # (1, 9, vocab)


def box(ax, x, y, text, colour, width=3.0):
    ax.add_patch(
        FancyBboxPatch(
            (x - width / 2, y - 0.45), width, 0.9, boxstyle="round,pad=0.06", facecolor=colour, edgecolor="black"
        )
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=10)


def arrow(ax, a, b, label=""):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=13, color="black", shrinkA=2, shrinkB=2))
    if label:
        ax.text((a[0] + b[0]) / 2 + 0.15, (a[1] + b[1]) / 2, label, ha="left", va="center", fontsize=9.5)


blue, orange, green, grey = "#d9e8f5", "#fde2c4", "#dcefd8", "#eeeeee"
fig, ax = plt.subplots(figsize=(11, 7.6), layout="constrained")
ax.text(3.6, 8.4, "encoder-decoder (the paper)", ha="center", fontsize=12, weight="bold")
box(ax, 1.5, 0, f"source ids {source.shape}", grey)
box(ax, 1.5, 2, "embed + positions", grey)
box(ax, 1.5, 4.2, f"encoder × {config.N}\nself-attention, feed-forward", blue)
box(ax, 5.9, 0, f"target, shifted right {target_in.shape}", grey, width=3.6)
box(ax, 5.9, 2, "embed + positions", grey)
box(ax, 5.9, 4.6, f"decoder × {config.N}\nmasked self-attention,\ncross-attention, feed-forward", orange, width=3.6)
box(ax, 5.9, 7.2, f"logits {logits.shape}", green)
arrow(ax, (1.5, 0.5), (1.5, 1.5))
arrow(ax, (1.5, 2.5), (1.5, 3.7), f"(1, {source.shape[1]}, {config.d_model})")
arrow(ax, (5.9, 0.5), (5.9, 1.5))
arrow(ax, (5.9, 2.5), (5.9, 3.8), f"(1, {target_in.shape[1]}, {config.d_model})")
arrow(ax, (5.9, 5.4), (5.9, 6.7))
arrow(ax, (3.0, 4.2), (4.1, 4.6))
ax.text(1.5, 5.6, f"memory {memory.shape}:\nkeys and values of\nevery cross-attention", ha="center", fontsize=9.5)

ax.text(12.2, 8.4, "decoder-only (GPT)", ha="center", fontsize=12, weight="bold")
box(ax, 12.2, 0, f"prompt and continuation {tokens.shape}", grey, width=4.2)
box(ax, 12.2, 2, "embed + positions", grey)
box(ax, 12.2, 4.6, f"decoder-only layer × {config.N}\nmasked self-attention,\nfeed-forward", orange, width=3.6)
box(ax, 12.2, 7.2, f"logits {logits_only.shape}", green)
arrow(ax, (12.2, 0.5), (12.2, 1.5))
arrow(ax, (12.2, 2.5), (12.2, 3.8), f"(1, {tokens.shape[1]}, {config.d_model})")
arrow(ax, (12.2, 5.4), (12.2, 6.7))
ax.plot([9.3, 9.3], [-0.6, 8.7], color="#999999", linewidth=0.8)
ax.text(
    8.0,
    -1.2,
    f"one forward pass of each, $d_{{model}}$ = {config.d_model}, vocabulary {config.vocab}: "
    "row i of the logits predicts the token after position i",
    ha="center",
    fontsize=10,
)
ax.set_xlim(-0.6, 14.8)
ax.set_ylim(-1.5, 8.8)
ax.axis("off")
fig.savefig("flow.svg", bbox_inches="tight", pad_inches=0.1)
