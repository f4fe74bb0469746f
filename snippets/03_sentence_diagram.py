# %% head
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from attn import attention_head, init_attention, positional_encoding

# One head on a real sentence. Its weights are random, not trained: the pattern carries no meaning
# yet. What the drawings teach is how to read a head: one word's row of weights, then every row.
words = "the cat sat on the mat".split()
n, d_model, d_k = len(words), 16, 8
rng = np.random.default_rng(3)
vocab = sorted(set(words))
E = rng.standard_normal((len(vocab), d_model))  # (vocab, d_model)
X = E[[vocab.index(w) for w in words]] + positional_encoding(n, d_model)  # (n, d_model)
params = init_attention(rng, d_model, d_k)
out, weights = attention_head(X, X, params, return_weights=True)  # (n, d_v), (n, n)
assert np.allclose(weights.sum(axis=-1), 1)  # each word's weights sum to 1
V = X @ params["W_v"]  # (n, d_v): what each word hands over
query = words.index("sat")
w = weights[query]  # (n,): the one row of weights the first figure draws
mix = w @ V  # (d_v,): the weighted mix of the values
assert np.allclose(mix, out[query])  # the head's output for "sat" is that mix

# %% fan
orange, colours = "#d9822b", plt.get_cmap("RdBu_r")
limit = max(np.abs(V).max(), np.abs(mix).max())
cell = 0.42  # width of one value cell
rows = -1.1 * np.arange(n)  # (n,): the y of each key and value row
middle = rows.mean()


def vector(ax, x0, y, values, labels):
    """One vector as a row of shaded cells, centred on y; each cell labelled if labels."""
    for j, value in enumerate(values):
        shade = colours(0.5 + 0.5 * value / limit)
        ax.add_patch(Rectangle((x0 + j * cell, y - 0.3), cell, 0.6, facecolor=shade, edgecolor="black", linewidth=0.5))
        if labels:
            dark = abs(value) > 0.6 * limit
            ax.text(
                x0 + (j + 0.5) * cell,
                y,
                f"{value:.1f}",
                ha="center",
                va="center",
                fontsize=8.5,
                color="white" if dark else "black",
            )


fig, ax = plt.subplots(figsize=(8.6, 4.8), layout="constrained")
ax.text(0, middle, f'"{words[query]}"', ha="right", va="center", fontsize=13, weight="bold", color="#a35a12")
x_value, x_mix = 3.4, 8.2
for j in range(n):
    ax.plot([0.15, 2.2], [middle, rows[j]], color=orange, linewidth=24 * w[j], solid_capstyle="round")
    at = 0.75  # the weight is written three quarters of the way along its line
    ax.text(
        0.15 + at * 2.05,
        middle + at * (rows[j] - middle),
        f"{w[j]:.2f}",
        ha="center",
        va="center",
        fontsize=9.5,
        color="#a35a12",
        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0},
    )
    ax.text(2.3, rows[j], words[j], ha="left", va="center", fontsize=12)
    vector(ax, x_value, rows[j], V[j], labels=False)
    end = x_value + d_k * cell
    ax.plot([end + 0.1, x_mix - 0.15], [rows[j], middle], color=orange, linewidth=24 * w[j], solid_capstyle="round")
vector(ax, x_mix, middle, mix, labels=True)
ax.text(0, 1.0, "query", ha="right", fontsize=10)
ax.text(1.7, 1.0, "weight", ha="center", fontsize=10, color="#a35a12")
ax.text(2.3, 1.0, "key", ha="left", fontsize=10)
ax.text(x_value + d_k * cell / 2, 1.0, "value", ha="center", fontsize=10)
ax.text(x_mix + d_k * cell / 2, middle + 0.6, "output: the weighted mix", ha="center", fontsize=10)
ax.set_title(
    f'How "{words[query]}" reads the sentence: one weight per word (line width), '
    "then a weighted mix of their values\n(a random, untrained head: the weights carry no meaning yet)",
    fontsize=10.5,
)
ax.set_xlim(-1.0, x_mix + d_k * cell + 0.3)
ax.set_ylim(rows[-1] - 0.6, 1.4)
ax.axis("off")
fig.savefig("fan.svg")

# %% sentence
fig, ax = plt.subplots(figsize=(7, 5.2), layout="constrained")
for i in range(n):
    ax.text(-0.1, -i, words[i], ha="right", va="center", fontsize=12, weight="bold" if i == query else "normal")
    ax.text(1.1, -i, words[i], ha="left", va="center", fontsize=12)
    for j in range(n):
        mine = i == query
        ax.plot(
            [0, 1],
            [-i, -j],
            color="#d9822b" if mine else "#4c8bc9",
            solid_capstyle="round",
            linewidth=12 * weights[i, j],
            alpha=0.95 if mine else 0.35,
            zorder=3 if mine else 2,
        )
for j in range(n):
    ax.text(1.55, -j, f"{weights[query, j]:.2f}", ha="left", va="center", fontsize=10, color="#a35a12")
ax.text(-0.1, 0.9, "query (each word)", ha="right", fontsize=10)
ax.text(1.1, 0.9, "key", ha="left", fontsize=10)
ax.text(1.55, 0.9, f'"{words[query]}"', ha="left", fontsize=10, color="#a35a12")
ax.set_title(
    f"One head's weights on a sentence: line width = weight,\n{n} lines from each word (a random, untrained head)",
    fontsize=10.5,
)
ax.set_xlim(-0.8, 2.0)
ax.set_ylim(-n + 0.4, 1.3)
ax.axis("off")
fig.savefig("sentence.svg")
