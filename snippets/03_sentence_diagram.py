import matplotlib.pyplot as plt
import numpy as np

from attn import attention_head, init_attention, positional_encoding

# One head on a real sentence. Its weights are random, not trained: the pattern carries no meaning
# yet. What the drawing teaches is how to read a head: each word's row of weights, as lines.
words = "the cat sat on the mat".split()
n, d_model, d_k = len(words), 16, 8
rng = np.random.default_rng(3)
vocab = sorted(set(words))
E = rng.standard_normal((len(vocab), d_model))  # (vocab, d_model)
X = E[[vocab.index(w) for w in words]] + positional_encoding(n, d_model)  # (n, d_model)
params = init_attention(rng, d_model, d_k)
_, weights = attention_head(X, X, params, return_weights=True)  # (n, n)
query = words.index("sat")
assert np.allclose(weights.sum(axis=-1), 1)  # each word's weights sum to 1

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
