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
    variants = ("unscaled", scores), ("scaled", scores / np.sqrt(d_k))
    for name, logits in variants:
        p = softmax(logits)
        J = p[:, :, None] * np.eye(n) - p[:, :, None] * p[:, None, :]
        norms = np.linalg.norm(J, axis=(1, 2))
        grad = np.einsum("qij,qi->qj", J, upstream)  # (2000, n)
        measured = {"J": norms.mean(), "frozen": (norms < 0.01).mean(),
                    "grad": np.linalg.norm(grad, axis=1).mean()}
        for quantity, value in measured.items():
            curves.setdefault((quantity, name), []).append(value)

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2),
                                  layout="constrained")
styles = ("unscaled", "tab:red", "o"), ("scaled", "tab:blue", "s")
for name, color, marker in styles:
    left.semilogx(d_ks, curves["J", name], marker=marker, color=color,
                  label=f"mean $\\|J\\|_F$, {name}")
    left.semilogx(d_ks, curves["grad", name], marker=marker, color=color,
                  linestyle="--",
                  label=f"mean $\\|\\partial L / \\partial z\\|$, {name}")
    right.semilogx(d_ks, curves["frozen", name], marker=marker,
                   color=color, label=name)
left.set_title("How much gradient the softmax lets through")
left.set_ylabel("norm, mean over 2,000 queries")
left.set_ylim(0, 0.4)
left.legend(loc="lower left", fontsize=9)
right.set_title("Queries whose softmax is nearly frozen "
                "($\\|J\\|_F < 0.01$)")
right.set_ylabel("share of queries")
right.set_ylim(-0.02, 1)
right.legend(loc="upper left")
for ax in (left, right):
    ax.set_xlabel("$d_k$ (log scale)")
    ax.set_xticks(d_ks, [str(d) for d in d_ks])
    ax.minorticks_off()
fig.savefig("gradient_through_softmax.svg")
