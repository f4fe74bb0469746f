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

# One head on a real sentence, drawn from random matrices. The next cells train it to fetch the
# word before each word; the figures draw the trained head, and the last one sets it beside this start.
words = "the cat sat on the mat".split()
n, d_model, d_k = len(words), 16, 8
rng = np.random.default_rng(3)
vocab = sorted(set(words))
E = rng.standard_normal((len(vocab), d_model))  # (vocab, d_model)
X = E[[vocab.index(w) for w in words]] + positional_encoding(n, d_model)  # (n, d_model)
params = init_attention(rng, d_model, d_k)
_, weights = attention_head(X, X, params, return_weights=True)  # (n, n): the random head's weights
V = X @ params["W_v"]  # (n, d_v): what each word hands over
query = words.index("sat")

# %% task
# A task whose right answer is known: each word must hand over
# the value of the word before it. The first word, with no word
# before it, hands over its own.
# 64 random sequences of six of the words.
batch = rng.integers(0, len(vocab), (64, n))  # (64, n)
# (64, n, d_model): built as the sentence was.
X_train = E[batch] + positional_encoding(n, d_model)
# The values, W_v kept as drawn.
V_train = X_train @ params["W_v"]  # (64, n, d_v)
# The position each word must read.
source = np.array([0, 0, 1, 2, 3, 4])  # (n,)
# The right output for every word.
target = V_train[:, source]  # (64, n, d_v)

# %% train
trained = {"W_q": params["W_q"], "W_k": params["W_k"]}  # start from the random head above
state, losses, steps = init_adam(trained), [], 200
for _ in range(steps):
    Q, K = X_train @ trained["W_q"], X_train @ trained["W_k"]  # (64, n, d_k) each
    out = scaled_dot_product_attention(Q, K, V_train)  # (64, n, d_v)
    losses.append(((out - target) ** 2).mean())
    d_out = 2 * (out - target) / target.size  # the gradient of that mean squared error
    dQ, dK, _ = attention_backward(d_out, Q, K, V_train)  # page 10 derives these
    grads = {"W_q": np.einsum("bnd,bnk->dk", X_train, dQ), "W_k": np.einsum("bnd,bnk->dk", X_train, dK)}
    trained, state = adam_step(trained, grads, state, lr=0.05)
print(f"mean squared error: {losses[0]:.3f} at step 1, {losses[-1]:.4f} at step {len(losses)}")

# %% trained
assert (np.linalg.matrix_rank(V_train) == n).all()  # so only a one-hot row of weights hits the target
_, w_train = attention_head(X_train, X_train, {**params, **trained}, return_weights=True)  # (64, n, n)
assert (w_train.argmax(axis=-1) == source).all(), "every word of every sequence reads its source most"
out, trained_weights = attention_head(X, X, {**params, **trained}, return_weights=True)  # the sentence
assert (trained_weights.argmax(axis=-1) == source).all()
assert np.allclose(trained_weights.sum(axis=-1), 1)  # each word's weights sum to 1
before_sat, after_sat = weights[query], trained_weights[query]  # (n,) each: the row of "sat"
w = after_sat  # the one row of weights the first figure draws
mix = w @ V  # (d_v,): the weighted mix of the values
assert np.allclose(mix, out[query])  # the head's output for "sat" is that mix
least_on_source = trained_weights[np.arange(n), source].min()  # the smallest weight on the word to read
least_pct = int(np.floor(100 * least_on_source))  # as a whole percentage, rounded down
print(f'"sat": weight {after_sat[1]:.2f} on "cat"; every word: at least {least_pct}% on the word it reads')

# %% fan
orange, colours = "#d9822b", plt.get_cmap("RdBu_r")
limit = max(np.abs(V).max(), np.abs(mix).max())
cell = 0.36  # width of one value cell
rows = -0.9 * np.arange(n)  # (n,): the y of each key and value row
x_weight, x_key, x_value = 1.3, 1.75, 2.7
y_out = rows[-1] - 1.5  # the output row, under the values so that its cells line up with theirs


def vector(ax, y, values, edge="black"):
    """One vector as a row of shaded cells, centred on y."""
    for j, value in enumerate(values):
        shade = colours(0.5 + 0.5 * value / limit)
        ax.add_patch(Rectangle((x_value + j * cell, y - 0.3), cell, 0.6, facecolor=shade, edgecolor="black", lw=0.5))
    if edge != "black":  # the outline that ties the output to the value it mostly copies
        ax.add_patch(Rectangle((x_value, y - 0.3), len(values) * cell, 0.6, fill=False, edgecolor=edge, lw=2.5))


fig, ax = plt.subplots(figsize=(4.6, 5.2), layout="constrained")
ax.text(0, rows.mean(), f'"{words[query]}"', ha="center", va="center", fontsize=13, weight="bold", color="#a35a12")
for j in range(n):
    ax.plot([0.45, x_weight - 0.3], [rows.mean(), rows[j]], color=orange, lw=1 + 12 * w[j], solid_capstyle="butt")
    ax.text(x_weight, rows[j], f"{w[j]:.2f}", ha="center", va="center", fontsize=11, color="#a35a12")
    ax.text(x_key, rows[j], words[j], ha="left", va="center", fontsize=12)
    vector(ax, rows[j], V[j], edge=orange if j == w.argmax() else "black")
vector(ax, y_out, mix, edge=orange)
middle = x_value + 4 * cell
ax.annotate("", (middle, y_out + 0.35), (middle, rows[-1] - 0.35), arrowprops={"arrowstyle": "-|>", "color": "black"})
ax.text(middle + 0.12, (y_out + rows[-1]) / 2, "mixed by\nthe weights", ha="left", va="center", fontsize=11)
ax.text(x_value - 0.1, y_out, "output", ha="right", va="center", fontsize=12)
for x, label in ((0, "query"), (x_weight, "weight"), (x_key + 0.3, "key"), (middle, "value")):
    ax.text(x, 0.7, label, ha="center", fontsize=11, color="#a35a12" if label == "weight" else "black")
ax.set_title(
    f'How "{words[query]}" reads the sentence: its output\nis nearly the value of "{words[w.argmax()]}"', fontsize=12
)
ax.set_xlim(-0.45, x_value + 8 * cell + 0.05)
ax.set_ylim(y_out - 0.45, 1.1)
ax.axis("off")
fig.savefig("fan.svg")

# %% sentence
fig, ax = plt.subplots(figsize=(4.6, 4.6), layout="constrained")
for i in range(n):
    ax.text(-0.1, -i, words[i], ha="right", va="center", fontsize=12, weight="bold" if i == query else "normal")
    ax.text(1.1, -i, words[i], ha="left", va="center", fontsize=12)
    for j in range(n):
        mine = i == query
        ax.plot(
            [0, 1],
            [-i, -j],
            color=orange if mine else "#4c8bc9",
            solid_capstyle="round",
            linewidth=8 * trained_weights[i, j],
            alpha=0.95 if mine else 0.5,
            zorder=3 if mine else 2,
        )
for j in range(n):
    ax.text(1.75, -j, f"{trained_weights[query, j]:.2f}", ha="left", va="center", fontsize=11, color="#a35a12")
ax.text(-0.1, 0.8, "query", ha="right", fontsize=11)
ax.text(1.1, 0.8, "key", ha="left", fontsize=11)
ax.text(1.75, 0.8, f'"{words[query]}"', ha="left", fontsize=11, color="#a35a12")
ax.set_title("Each word reads the word before it\n(line width = weight)", fontsize=12)
ax.set_xlim(-0.75, 2.2)
ax.set_ylim(-n + 0.5, 1.2)
ax.axis("off")
fig.savefig("sentence.svg")

# %% compare
fig, axes = plt.subplots(2, 1, figsize=(4.6, 8.4), layout="constrained")
panels = (
    (weights, "Attention weights of an untrained head"),
    (trained_weights, f"After {steps} training steps: the word before"),
)
for ax, (matrix, title) in zip(axes, panels, strict=True):
    image = ax.imshow(matrix, cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(matrix):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=10, color="white" if value > 0.6 else "black")
    ax.set_title(title, fontsize=12)
    ax.set_xticks(range(n), words, fontsize=11)
    ax.set_yticks(range(n), words, fontsize=11)
    ax.set_xlabel("key (the word read)", fontsize=11)
    ax.set_ylabel("query (the word reading)", fontsize=11)
    ax.tick_params(length=0)
fig.colorbar(image, ax=axes, shrink=0.5, location="bottom", label="attention weight")
fig.savefig("trained.svg")
