import matplotlib.pyplot as plt
import numpy as np

from attn import alibi_bias, apply_rope, positional_encoding, relative_offsets

# One query vector q and one key vector k, the same content at every position, so that every
# change across a panel comes from position alone. Row i: the query's position; column j: the key's.
seed, n, d_k, clip = 0, 16, 16, 3
rng = np.random.default_rng(seed)
q, k = rng.standard_normal(d_k), rng.standard_normal(d_k)  # (d_k,) each
Q, K = np.tile(q, (n, 1)), np.tile(k, (n, 1))  # (n, d_k) each

pe = positional_encoding(n, d_k)  # (n, d_k)
added = (Q + pe) @ (K + pe).T  # (n, n): sinusoids added to the input
w_k = rng.standard_normal((2 * clip + 1, d_k))  # (2 clip + 1, d_k): one learned vector per clipped offset
relative = q @ (k + w_k[relative_offsets(n, n, clip) + clip]).swapaxes(-1, -2)  # (n, n): q . (k + a^K_ij)
rotary = apply_rope(Q) @ apply_rope(K).T  # (n, n)
alibi = q @ k + alibi_bias(n, np.array([0.5]))[0]  # (n, n): q . k - m (i - j), slope 1/2
alibi[np.triu_indices(n, 1)] = np.nan  # future keys: removed by the causal mask

panels = [
    (added, "sinusoids added\nto the input"),
    (relative, f"relative (Shaw),\noffsets clipped at ±{clip}"),
    (rotary, "rotary (RoPE)"),
    (alibi, "ALiBi, slope 1/2,\ncausal"),
]
# Two by two, 4.4 inches wide with 12.5 pt text: shown 342 px wide on a 390 px phone, every
# label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, axes = plt.subplots(2, 2, figsize=(4.4, 6.4), layout="constrained")
for ax, (scores, title) in zip(axes.flat, panels, strict=True):
    ax.imshow(scores, cmap="viridis")
    ax.set_title(title, fontsize=12.5)
    ax.set_xticks([0, 5, 10, 15])
    ax.set_yticks([0, 5, 10, 15])
for ax in axes[1]:
    ax.set_xlabel("key position j")
for ax in axes[:, 0]:
    ax.set_ylabel("query position i")
fig.suptitle(
    "The score of the same query and key at\nevery pair of positions: stripes mean it\ndepends on j - i alone",
    fontsize=12.5,
)
fig.text(0.5, 0, "colour: the score, yellow high, each panel\non its own scale", ha="center", va="bottom")
fig.get_layout_engine().set(rect=(0, 0.085, 1, 0.915))
fig.savefig("four_scores.svg")
