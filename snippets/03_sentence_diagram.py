# %% head
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from attn import (
    adam_step,
    attention_backward,
    attention_head,
    init_adam,
    init_attention,
    positional_encoding,
    scaled_dot_product_attention,
)

# One head on a real sentence. Its weights are random, not trained: the pattern carries no meaning
# yet. What the drawings teach is how to read a head: one word's row of weights, then every row.
# The last three cells train the same head on a task whose right answer is known.
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

# %% task
# A task whose right answer is known: each word must hand over the value of the word before it.
# The first word, with no word before it, hands over its own.
batch = rng.integers(0, len(vocab), (64, n))  # (64, n): 64 random sequences of six of the words
X_train = E[batch] + positional_encoding(n, d_model)  # (64, n, d_model): built as the sentence was
V_train = X_train @ params["W_v"]  # (64, n, d_v): the values, W_v kept as drawn
source = np.array([0, 0, 1, 2, 3, 4])  # (n,): the position each word must read
target = V_train[:, source]  # (64, n, d_v): the right output for every word

# %% train
trained = {"W_q": params["W_q"], "W_k": params["W_k"]}  # start from the random head above
state, losses, steps = init_adam(trained), [], 200
for _ in range(steps):
    Q, K = X_train @ trained["W_q"], X_train @ trained["W_k"]  # (64, n, d_k) each
    out = scaled_dot_product_attention(Q, K, V_train)  # (64, n, d_v)
    losses.append(((out - target) ** 2).mean())
    d_out = 2 * (out - target) / target.size  # the gradient of that mean squared error
    dQ, dK, _ = attention_backward(d_out, Q, K, V_train)  # section 10 derives these
    grads = {"W_q": np.einsum("bnd,bnk->dk", X_train, dQ), "W_k": np.einsum("bnd,bnk->dk", X_train, dK)}
    trained, state = adam_step(trained, grads, state, lr=0.05)
print(f"mean squared error: {losses[0]:.3f} at step 1, {losses[-1]:.4f} at step {len(losses)}")

# %% trained
# The n values of a sequence are linearly independent, so only a one-hot row of weights hits the target.
assert (np.linalg.matrix_rank(V_train) == n).all()
_, w_train = attention_head(X_train, X_train, {**params, **trained}, return_weights=True)  # (64, n, n)
assert (w_train.argmax(axis=-1) == source).all(), "every word of every sequence reads its source most"
_, trained_weights = attention_head(X, X, {**params, **trained}, return_weights=True)  # (n, n): the sentence
assert (trained_weights.argmax(axis=-1) == source).all()
before_sat, after_sat = weights[query], trained_weights[query]  # (n,) each: the row of "sat"
least_on_source = trained_weights[np.arange(n), source].min()  # the smallest weight on the word to read

fig, axes = plt.subplots(1, 2, figsize=(10, 4.6), layout="constrained")
panels = ((weights, "the random head of the figures above"), (trained_weights, f"the same head after {steps} steps"))
for ax, (matrix, title) in zip(axes, panels, strict=True):
    image = ax.imshow(matrix, cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(matrix):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=9, color="white" if value > 0.6 else "black")
    ax.set_title(title)
    ax.set_xticks(range(n), words)
    ax.set_yticks(range(n), words)
    ax.set_xlabel("key (the word read)")
    ax.set_ylabel("query (the word reading)")
    ax.tick_params(length=0)
fig.colorbar(image, ax=axes, shrink=0.8, label="attention weight")
fig.suptitle("Trained to fetch the word before it, each word puts its weight on that word")
fig.savefig("trained.svg")
