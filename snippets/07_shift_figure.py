import matplotlib.pyplot as plt

from attn import causal_mask

# The teacher-forcing example of this page: the target, and the decoder input (shifted right by one).
target = ["the", "cat", "sat", "down", "<end>"]
decoder_input = ["<start>"] + target[:-1]
n = len(target)
mask = causal_mask(n)  # (n, n): position i may attend to inputs 0..i
# Target token i is the input at position i + 1: always to the right of the diagonal, so masked.
assert not any(mask[i, i + 1] for i in range(n - 1)), "no position may see the token it must predict"

blue, grey, red = "#2f6db5", "#e6e6e6", "#c0392b"
fig, ax = plt.subplots(figsize=(9.5, 6.4), layout="constrained")


def box(x, y, text, face, colour="black"):
    """One token as a labelled square centred on (x, y)."""
    ax.add_patch(plt.Rectangle((x - 0.45, y - 0.4), 0.9, 0.8, fc=face, ec="#888888"))
    ax.text(x, y, text, ha="center", va="center", fontsize=10, color=colour)


# Top: the target sentence, and each of its tokens moved one place right to form the input.
ax.text(-0.7, 7.2, "target", ha="right", va="center", fontsize=10)
ax.text(-0.7, 5.8, "decoder input\n(shifted right)", ha="right", va="center", fontsize=10)
for i in range(n):
    box(i, 7.2, target[i], "#fdf1dc")
    box(i, 5.8, decoder_input[i], "#dde8f5")
    if i + 1 < n:
        ax.annotate("", xy=(i + 1, 6.2), xytext=(i, 6.8), arrowprops={"arrowstyle": "->", "color": "#777777"})

# Below: who sees whom. Row i is position i; column j is the input at position j.
for i in range(n):
    y = 4.2 - i
    ax.text(-0.7, y, f"position {i}", ha="right", va="center", fontsize=10)
    for j in range(n):
        if mask[i, j]:
            box(j, y, "sees", blue, "white")
        elif j == i + 1:  # the token this position is trained to predict
            ax.add_patch(plt.Rectangle((j - 0.45, y - 0.4), 0.9, 0.8, fc=grey, ec=red, lw=2))
            ax.text(j, y, "its answer:\nhidden", ha="center", va="center", fontsize=8, color=red)
        else:
            box(j, y, "hidden", grey, "#777777")
    ax.text(n - 0.2, y, f"→ predicts “{target[i]}”", ha="left", va="center", fontsize=10)
for j in range(n):
    ax.text(j, 4.85, decoder_input[j], ha="center", va="bottom", fontsize=9, color="#555555")

ax.set_xlim(-2.6, n + 1.6)
ax.set_ylim(-0.6, 7.8)
ax.set_aspect("equal")
ax.axis("off")
ax.set_title("Shift right, then mask: each position sees itself and earlier inputs, never its answer")
fig.savefig("shift_and_mask.svg")
