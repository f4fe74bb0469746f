import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, Rectangle

from attn import Config, decoder_only_step, init_decoder_only, new_caches

# The model and prompt of 11_generate.py, generating with a cache; each step is drawn as it runs.
words = ["<s>", "the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "it", "."]
seed = 11
vocab, d_model, h, d_ff, N = len(words), 16, 4, 64, 2
config = Config(vocab, d_model, h, d_ff, N, pad=None)  # no token is padding
params = init_decoder_only(np.random.default_rng(seed), config)
prompt, steps = [words.index("<s>"), words.index("the")], 5

caches = new_caches(params, config, capacity=len(prompt) + steps)
tokens, new, rows = list(prompt), list(prompt), []
for _ in range(steps):
    before = caches[0].length
    next_token = int(decoder_only_step(params, new, config, caches)[-1].argmax())
    stored = caches[0].k[:, : caches[0].length].shape  # (h, length, d_k): one layer's keys so far
    rows.append((before, caches[0].length, next_token, stored))  # cached before, after, chosen, shape
    new = [next_token]
    tokens.append(next_token)

# Drawn in inches, 4.2 wide with 12 pt text: shown 342 px wide on a 390 px phone, every label
# reads at 10 pt or more. Each step is a row: a heading, its boxes, the token it picks.
size, width, cell, gap, row_h = 12, 4.2, 0.5, 0.07, 1.02
fig = plt.figure(figsize=(width, 10))
ax = fig.add_axes((0, 0, 1, 1))
ax.text(0.05, 0.05, "keys cached: (h, positions so far, $d_k$)\nin each layer; the values alike", fontsize=size)
for y, colour, edge, text in [
    (0.75, "#f4a259", 2.5, "computed in this step (thick\nedge), then stored"),
    (1.3, "#e0e0e0", 0.8, "read from the cache"),
]:
    ax.add_patch(Rectangle((0.05, y), 0.4, 0.3, facecolor=colour, edgecolor="black", linewidth=edge))
    ax.text(0.55, y + 0.15, text, va="center", fontsize=size, linespacing=1.1)
for row, (before, after, chosen, stored) in enumerate(reversed(rows)):
    step = len(rows) - row
    y = 1.85 + row * row_h  # the bottom of the row's boxes
    label = "step 1 (the prompt)" if step == 1 else f"step {step}"
    ax.text(0.05, y + 0.62, label, va="bottom", fontsize=size, weight="bold")
    ax.text(width - 0.05, y + 0.62, f"keys cached {stored}", ha="right", va="bottom", fontsize=size)
    for pos in range(after):
        fresh = pos >= before  # computed in this step; the rest is read from the cache
        x = 0.05 + pos * (cell + gap)
        ax.add_patch(
            Rectangle(
                (x, y),
                cell,
                0.55,
                facecolor="#f4a259" if fresh else "#e0e0e0",
                edgecolor="black",
                linewidth=2.5 if fresh else 0.8,
            )
        )
        ax.text(x + cell / 2, y + 0.39, words[tokens[pos]], ha="center", va="center", fontsize=size)
        ax.text(x + cell / 2, y + 0.14, "k, v", ha="center", va="center", fontsize=size)
    end = 0.05 + after * (cell + gap)
    ax.add_patch(
        FancyArrowPatch((end, y + 0.28), (end + 0.3, y + 0.28), arrowstyle="-|>", mutation_scale=14, color="black")
    )
    ax.text(end + 0.35, y + 0.28, words[chosen], ha="left", va="center", fontsize=size, weight="bold")
title = y + 0.97
ax.text(
    0.05,
    title,
    f"Generating with a KV cache: one such\nrow of keys and values in each of\nthe N = {N} layers",
    fontsize=size + 0.5,
)
height = title + 0.72
fig.set_size_inches(width, height)
ax.set_xlim(0, width)
ax.set_ylim(0, height)
ax.axis("off")
fig.savefig("decoding.svg")
