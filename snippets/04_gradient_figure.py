import matplotlib.pyplot as plt
import numpy as np

from attn import softmax

# The measurement of 04_gradient.py, same seed and draw order.
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
    for name, scale in ("unscaled", 1.0), ("scaled", 1 / np.sqrt(d_k)):
        p = softmax(scale * scores)
        J = p[:, :, None] * np.eye(n) - p[:, :, None] * p[:, None, :]  # (2000, n, n)
        dz = np.einsum("qij,qi->qj", J, upstream)  # (2000, n)
        dq = np.linalg.norm(scale * np.einsum("qj,qjd->qd", dz, keys), axis=1)  # (2000,)
        measured = {
            "J": np.linalg.norm(J, axis=(1, 2)).mean(),
            "dz": np.linalg.norm(dz, axis=1).mean(),
            "q mean": dq.mean(),
            "q median": np.median(dq),
            "q small": (dq < 0.01).mean(),
        }
        for quantity, value in measured.items():
            curves.setdefault((quantity, name), []).append(value)

styles = ("unscaled", "tab:red", "o"), ("scaled", "tab:blue", "s")

# The main result: the share of starved queries per width.
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
for name, color, marker in styles:
    ax.semilogx(d_ks, curves["q small", name], marker=marker, color=color, label=name)
ax.set_title("Queries starved of gradient ($\\|\\partial L / \\partial q\\| < 0.01$)")
ax.set_ylabel("share of 2,000 random queries")
ax.set_ylim(-0.02, 1)
ax.legend(loc="upper left")
ax.set_xlabel("$d_k$ (log scale)")
ax.set_xticks(d_ks, [str(d) for d in d_ks])
ax.minorticks_off()
fig.savefig("starved_share.svg")

# The detail: at the scores, and at the query.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
for name, color, marker in styles:
    left.semilogx(d_ks, curves["J", name], marker=marker, color=color, label=f"mean $\\|J\\|_F$, {name}")
    left.semilogx(
        d_ks,
        curves["dz", name],
        marker=marker,
        color=color,
        linestyle="--",
        label=f"mean $\\|\\partial L / \\partial z\\|$, {name}",
    )
    right.loglog(d_ks, curves["q mean", name], marker=marker, color=color, label=f"mean, {name}")
    right.loglog(d_ks, curves["q median", name], marker=marker, color=color, linestyle="--", label=f"median, {name}")
left.set_title("At the scores $z$")
left.set_ylabel("norm, mean over 2,000 queries")
left.set_ylim(0, 0.4)
left.legend(loc="lower left", fontsize=8)
right.set_title("At the query $q$: $\\|\\partial L / \\partial q\\|$")
right.set_ylabel("norm (log scale)")
right.legend(loc="lower left", fontsize=8)
for ax in (left, right):
    ax.set_xlabel("$d_k$ (log scale)")
    ax.set_xticks(d_ks, [str(d) for d in d_ks])
    ax.minorticks_off()
fig.savefig("gradient_through_softmax.svg")
