import matplotlib.pyplot as plt
import numpy as np

from attn import softmax, softmax_backward

plt.rcParams.update({"font.size": 11, "legend.fontsize": 11})  # 10 pt or more at phone width

# The measurement of 04_gradient.py, same seed and draw order: 10 keys per query, then 100.
# A query is starved below a hundredth of the scaled head's median at the same width.
rng = np.random.default_rng(1)
n = 10
rng.standard_normal(n)  # the vector 04_gradient.py uses for its check
d_ks = np.array([4, 16, 64, 256, 1024])
curves = {}  # (quantity, variant) -> one value per d_k
for d_k in d_ks:
    queries = rng.standard_normal((2_000, d_k))
    keys = rng.standard_normal((2_000, n, d_k))
    upstream = rng.standard_normal((2_000, n))
    scores = np.einsum("nd,nkd->nk", queries, keys)  # (2000, n)
    dq = {}  # per variant: (2000,)
    for name, scale in ("unscaled", 1.0), ("scaled", 1 / np.sqrt(d_k)):
        p = softmax(scale * scores)
        J = p[:, :, None] * np.eye(n) - p[:, :, None] * p[:, None, :]  # (2000, n, n)
        dz = np.einsum("qij,qi->qj", J, upstream)  # (2000, n)
        dq[name] = np.linalg.norm(scale * np.einsum("qj,qjd->qd", dz, keys), axis=1)
        measured = {
            "J": np.linalg.norm(J, axis=(1, 2)).mean(),
            "dz": np.linalg.norm(dz, axis=1).mean(),
            "q mean": dq[name].mean(),
            "q median": np.median(dq[name]),
        }
        for quantity, value in measured.items():
            curves.setdefault((quantity, name), []).append(value)
    for name in dq:
        starved = dq[name] < 0.01 * np.median(dq["scaled"])
        curves.setdefault(("q small", name), []).append(100 * starved.mean())
for d_k in d_ks:  # 100 keys: 20 groups of 100 queries, each group sharing its keys
    queries = rng.standard_normal((20, 100, d_k))
    keys = rng.standard_normal((20, 100, d_k))
    upstream = rng.standard_normal((20, 100, 100))
    scores = queries @ keys.transpose(0, 2, 1)  # (20, 100, 100)
    dq = {}  # per variant: (20, 100)
    for name, scale in ("unscaled", 1.0), ("scaled", 1 / np.sqrt(d_k)):
        dz = softmax_backward(upstream, softmax(scale * scores))  # (20, 100, 100)
        dq[name] = np.linalg.norm(scale * dz @ keys, axis=-1)
    for name in dq:
        starved = dq[name] < 0.01 * np.median(dq["scaled"])
        curves.setdefault(("q small 100", name), []).append(100 * starved.mean())

styles = ("unscaled", "tab:red", "o"), ("scaled", "tab:blue", "s")

# The main result: how strongly the softmax responds, 10 keys per query.
fig, top = plt.subplots(figsize=(4, 3.4), layout="constrained")
for name, color, marker in styles:
    top.semilogx(d_ks, curves["J", name], marker=marker, color=color, label=name)
top.set_title("Softmax response, 10 keys")
top.set_ylabel("mean $\\|J\\|_F$ over 2,000 queries")
top.set_ylim(0, 0.4)
top.legend(loc="lower left")
top.set_xlabel("$d_k$ (log scale)")
top.set_xticks(d_ks, [str(d) for d in d_ks])
top.minorticks_off()
fig.savefig("response.svg")

# The research note: the share of starved queries, 10 and 100 keys per query.
fig, ax = plt.subplots(figsize=(4, 3.6), layout="constrained")
for name, color, marker in styles:
    for keys_per_query, suffix, line in (10, "", "-"), (100, " 100", "--"):
        label = f"{name}, {keys_per_query} keys"
        ax.semilogx(d_ks, curves["q small" + suffix, name], line, marker=marker, color=color, label=label)
ax.set_title("Starved queries")
ax.set_ylabel("% of 2,000 random queries")
ax.set_ylim(-3, 100)
ax.legend(loc="upper left")
ax.set_xlabel("$d_k$ (log scale)")
ax.set_xticks(d_ks, [str(d) for d in d_ks])
ax.minorticks_off()
fig.savefig("starved_share.svg")

# The detail, 10 keys per query: at the scores, and at the query.
fig, (upper, lower) = plt.subplots(2, 1, figsize=(4, 6.6), layout="constrained", sharex=True)
for name, color, marker in styles:
    upper.semilogx(d_ks, curves["J", name], marker=marker, color=color, label=f"$\\|J\\|_F$, {name}")
    upper.semilogx(
        d_ks,
        curves["dz", name],
        marker=marker,
        color=color,
        linestyle="--",
        label=f"$\\|\\partial L / \\partial z\\|$, {name}",
    )
    lower.loglog(d_ks, curves["q mean", name], marker=marker, color=color, label=f"mean, {name}")
    lower.loglog(d_ks, curves["q median", name], marker=marker, color=color, linestyle="--", label=f"median, {name}")
upper.set_title("At the scores $z$")
upper.set_ylabel("mean over 2,000 queries")
upper.set_ylim(0, 0.62)
upper.legend(loc="upper right")
lower.set_title("At the query $q$: $\\|\\partial L / \\partial q\\|$")
lower.set_ylabel("norm (log scale)")
lower.legend(loc="lower left")
lower.set_xlabel("$d_k$ (log scale)")
lower.set_xticks(d_ks, [str(d) for d in d_ks])
lower.minorticks_off()
fig.savefig("gradient_through_softmax.svg")
