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

fig, ax = plt.subplots(figsize=(10, 4.6), layout="constrained")
colours = ["#4c8bc9", "#f0a04b", "#59a14f"]
for b, (start, m_b, ell_b) in enumerate(states):
    keys = np.arange(start, start + block)
    ax.bar(keys, s[keys], color=colours[b % 3], width=0.7, label=f"block {b + 1}")
    ax.hlines(m_b, start - 0.45, start + block - 0.55, colors=colours[b % 3], linestyles="--", linewidth=1.2)
    ax.text(
        start + block / 2 - 0.5,
        s.max() + 1.5,
        f"after block {b + 1}:\nm = {m_b:.2f}, ℓ = {ell_b:.2f}",
        ha="center",
        va="bottom",
        fontsize=10,
    )
ax.axhline(0, color="black", linewidth=0.6)
ax.set_xticks(range(n))
ax.set_xlabel("key")
ax.set_ylabel("score s of one query row")
ax.set_ylim(s.min() - 0.8, s.max() + 3.4)
ax.set_title("Online softmax: the dashed line is the running maximum m, as each block of keys arrives")
ax.legend(loc="lower left", fontsize=9)
fig.savefig("online_softmax.svg")
