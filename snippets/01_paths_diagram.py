import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch

from attn import sequential_steps

# Six tokens; how the first token's information reaches the last, in each kind of layer.
n = 6
steps = {kind: sequential_steps(n, kind) for kind in ("recurrent", "attention")}
hops_recurrent = n - 1  # hidden state to hidden state, from token 1 to token n


def token(ax, x, y, text, colour):
    ax.add_patch(plt.Circle((x, y), 0.32, facecolor=colour, edgecolor="black", zorder=3))
    ax.text(x, y, text, ha="center", va="center", fontsize=10, zorder=4)


fig, ax = plt.subplots(figsize=(10, 5), layout="constrained")
for i in range(n):
    token(ax, 1.6 * i, 2.6, f"h{i + 1}", "#d9e8f5")
    token(ax, 1.6 * i, 0, f"x{i + 1}", "#fde2c4")
    if i:
        ax.add_patch(
            FancyArrowPatch(
                (1.6 * (i - 1) + 0.34, 2.6),
                (1.6 * i - 0.34, 2.6),
                arrowstyle="-|>",
                mutation_scale=13,
                color="#1f5f9e",
                linewidth=1.6,
            )
        )
for j in range(n - 1):  # attention: the last position reads every earlier one directly (and itself)
    ax.add_patch(
        FancyArrowPatch(
            (1.6 * j, 0.34),
            (1.6 * (n - 1), 0.34),
            connectionstyle="arc3,rad=-0.35",
            arrowstyle="-|>",
            mutation_scale=11,
            color="#b3590f",
            linewidth=1.0,
            shrinkA=2,
            shrinkB=6,
        )
    )
ax.text(
    -0.8,
    3.5,
    f"recurrent layer: token 1 reaches token {n} through {hops_recurrent} hops, "
    f"computed in {steps['recurrent']} steps one after another",
    fontsize=10.5,
)
ax.text(
    -0.8,
    -0.75,
    f"self-attention: token {n} reads every token (itself included) through one weight each; "
    f"all outputs in {steps['attention']} step",
    fontsize=10.5,
)
ax.set_xlim(-1.0, 1.6 * n)
ax.set_ylim(-1.0, 3.9)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("paths.svg", bbox_inches="tight", pad_inches=0.1)
