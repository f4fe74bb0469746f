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

fig, ax = plt.subplots(figsize=(9.5, 5.2), layout="constrained")
cell, gap, top = 1.0, 0.25, len(rows) * 1.5
for row, (before, after, chosen, stored) in enumerate(rows):
    y = top - row * 1.5
    label = "step 1 (the prompt)" if row == 0 else f"step {row + 1}"
    ax.text(-0.3, y + 0.45, label, ha="right", va="center", fontsize=11)
    for pos in range(after):
        fresh = pos >= before  # computed in this step; the rest is read from the cache
        ax.add_patch(
            Rectangle(
                (pos * (cell + gap), y),
                cell,
                0.9,
                facecolor="#f4a259" if fresh else "#e0e0e0",
                edgecolor="black",
                linewidth=2.5 if fresh else 0.8,
            )
        )
        ax.text(pos * (cell + gap) + cell / 2, y + 0.6, words[tokens[pos]], ha="center", va="center", fontsize=10)
        ax.text(pos * (cell + gap) + cell / 2, y + 0.25, "k, v", ha="center", va="center", fontsize=9)
    end = after * (cell + gap)
    ax.add_patch(
        FancyArrowPatch(
            (end - gap + 0.05, y + 0.45), (end + 0.9, y + 0.45), arrowstyle="-|>", mutation_scale=14, color="black"
        )
    )
    ax.text(end + 1.0, y + 0.6, f"next: {words[chosen]}", ha="left", va="center", fontsize=11, weight="bold")
    ax.text(end + 1.0, y + 0.15, f"keys cached {stored}", ha="left", va="center", fontsize=9)

ax.add_patch(Rectangle((0, -0.5), 0.6, 0.45, facecolor="#e0e0e0", edgecolor="black", linewidth=0.8))
ax.text(0.75, -0.27, "read from the cache", va="center", fontsize=10)
ax.add_patch(Rectangle((5.2, -0.5), 0.6, 0.45, facecolor="#f4a259", edgecolor="black", linewidth=2.5))
ax.text(5.95, -0.27, "computed in this step (thick edge), then stored", va="center", fontsize=10)
ax.text(0, -0.95, "keys cached: (h, positions so far, $d_k$) in each layer; the values alike", va="center", fontsize=10)
ax.set_title(f"Generating with a KV cache: one such row of keys and values in each of the N = {N} layers")
ax.set_xlim(-3.6, (len(tokens) + 1) * (cell + gap) + 3.5)
ax.set_ylim(-1.2, top + 1.1)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("decoding.svg", bbox_inches="tight", pad_inches=0.1)
