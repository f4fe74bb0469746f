import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch

from attn import sequential_steps

# Six tokens; how the first token's information reaches the last, in each kind of layer.
n = 6
steps = {kind: sequential_steps(n, kind) for kind in ("recurrent", "attention")}
hops_recurrent = n - 1  # hidden state to hidden state, from token 1 to token n


def token(ax, x, y, text, colour):
    ax.add_patch(plt.Circle((x, y), 0.22, facecolor=colour, edgecolor="black", zorder=3))
    ax.text(x, y, text, ha="center", va="center", fontsize=12, zorder=4)


# Drawn in inches, 4.2 wide with 12 pt text: shown 342 px wide on a 390 px phone, every label
# reads at 10 pt or more.
width, height, step = 4.2, 3.55, 0.7
fig = plt.figure(figsize=(width, height))
ax = fig.add_axes((0, 0, 1, 1))
for i in range(n):
    token(ax, 0.35 + step * i, 2.35, f"h{i + 1}", "#d9e8f5")
    token(ax, 0.35 + step * i, 0.95, f"x{i + 1}", "#fde2c4")
    if i:
        ax.add_patch(
            FancyArrowPatch(
                (0.35 + step * (i - 1) + 0.23, 2.35),
                (0.35 + step * i - 0.23, 2.35),
                arrowstyle="-|>",
                mutation_scale=13,
                color="#1f5f9e",
                linewidth=1.6,
            )
        )
for j in range(n - 1):  # attention: the last position reads every earlier one directly (and itself)
    ax.add_patch(
        FancyArrowPatch(
            (0.35 + step * j, 1.17),
            (0.35 + step * (n - 1), 1.17),
            connectionstyle="arc3,rad=-0.3",
            arrowstyle="-|>",
            mutation_scale=11,
            color="#b3590f",
            linewidth=1.0,
            shrinkA=2,
            shrinkB=4,
        )
    )
ax.text(
    0.05,
    2.7,
    f"Recurrent layer: token 1 reaches token {n}\nthrough {hops_recurrent} hops, "
    f"computed in {steps['recurrent']} steps\none after another.",
    fontsize=12,
    va="bottom",
    linespacing=1.15,
)
ax.text(
    0.05,
    0.62,
    f"Self-attention: token {n} reads every token\n(itself included) through one weight each;\n"
    f"all outputs in {steps['attention']} step.",
    fontsize=12,
    va="top",
    linespacing=1.15,
)
ax.set_xlim(0, width)
ax.set_ylim(0, height)
ax.axis("off")
fig.savefig("paths.svg")
