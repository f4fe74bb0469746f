import matplotlib.pyplot as plt
import numpy as np

from attn import softmax

# One query row meeting 12 keys in blocks of 4: the running maximum m and sum l after each block.
rng = np.random.default_rng(2)
n, block = 12, 4
s = 2 * rng.standard_normal(n)  # (n,): one row of scaled scores
v = rng.standard_normal(n)  # (n,): one value feature per key
m, ell, o, states = -np.inf, 0.0, 0.0, []
for start in range(0, n, block):
    S = s[start : start + block]  # (block,): this block's scores
    m_new = max(m, S.max())
    P = np.exp(S - m_new)  # (block,)
    ell = np.exp(m - m_new) * ell + P.sum()
    o = np.exp(m - m_new) * o + P @ v[start : start + block]
    m = m_new
    states.append((start, m, ell))
assert np.isclose(o / ell, softmax(s) @ v), "the running sums give the softmax-weighted sum"

# 4.3 inches wide: on a 390 px phone every label reads at 10 pt or more.
FONT = 12.5
fig, ax = plt.subplots(figsize=(4.3, 4.6), layout="constrained")
colours = ["#4c8bc9", "#f0a04b", "#59a14f"]
text_colours = ["#2a5d8f", "#a35a0c", "#3b7a34"]  # the same hues, dark enough to read as text
for b, (start, m_b, ell_b) in enumerate(states):
    keys = np.arange(start, start + block)
    ax.bar(keys, s[keys], color=colours[b % 3], width=0.7)
    ax.hlines(m_b, start - 0.45, start + block - 0.55, colors=colours[b % 3], linestyles="--", linewidth=1.2)
    ax.text(
        start + block / 2 - 0.5,
        s.max() + 1.2,
        f"block {b + 1}\nm = {m_b:.2f}\nℓ = {ell_b:.2f}",
        ha="center",
        va="bottom",
        fontsize=FONT,
        color=text_colours[b % 3],
    )
ax.axhline(0, color="black", linewidth=0.6)
ax.set_xticks(range(0, n, 2), [str(k) for k in range(0, n, 2)], fontsize=FONT)
ax.tick_params(axis="y", labelsize=FONT)
ax.set_xlabel("key", fontsize=FONT)
ax.set_ylabel("score s of one query row", fontsize=FONT)
ax.set_ylim(s.min() - 0.8, s.max() + 5.2)
ax.set_title("Running max m (dashed) and sum ℓ", fontsize=FONT)
fig.savefig("online_softmax.svg")
