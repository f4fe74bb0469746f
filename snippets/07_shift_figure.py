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
FONT = 12.5  # 4.3 inches wide: on a 390 px phone every label still reads at 10 pt or more
fig, ax = plt.subplots(figsize=(4.3, 7.0), layout="constrained")


def box(x, y, text, face, colour="black", edge="#888888", lw=1.0):
    """One cell, a square of side 1 centred on (x, y)."""
    ax.add_patch(plt.Rectangle((x - 0.48, y - 0.45), 0.96, 0.9, fc=face, ec=edge, lw=lw))
    ax.text(x, y, text, ha="center", va="center", fontsize=FONT, color=colour)


# Top: the target sentence, and each of its tokens moved one place right to form the input.
ax.text(-0.48, 8.2, "target", ha="left", va="bottom", fontsize=FONT)
for i in range(n):
    box(i, 7.7, target[i], "#fdf1dc")
    box(i, 6.0, decoder_input[i], "#dde8f5")
    if i + 1 < n:
        ax.annotate("", xy=(i + 1, 6.5), xytext=(i, 7.2), arrowprops={"arrowstyle": "->", "color": "#777777"})
ax.text(-0.48, 5.45, "decoder input: the target shifted right", ha="left", va="top", fontsize=FONT)

# Below, one row per position, one column per input above it: who sees whom.
for i in range(n):
    y = 4.3 - i
    ax.text(-0.62, y, str(i), ha="right", va="center", fontsize=FONT)
    for j in range(n):
        if mask[i, j]:
            box(j, y, "sees", blue, "white")
        elif j == i + 1:  # the input here is the very token this position must predict
            box(j, y, target[i], grey, red, edge=red, lw=2)
        else:
            box(j, y, "", grey)
ax.text(-1.05, 2.3, "position", ha="center", va="center", rotation=90, fontsize=FONT)
ax.text(-0.48, -0.35, "red: the answer, hidden", ha="left", va="top", fontsize=FONT, color=red)

ax.set_xlim(-1.3, n - 0.45)
ax.set_ylim(-0.9, 8.7)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("shift_and_mask.svg", bbox_inches="tight", pad_inches=0.05)
