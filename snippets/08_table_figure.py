import matplotlib.pyplot as plt

from attn.cost import attention_flops, score_matrix_bytes

# One score per pair of tokens: a sentence of n tokens fills an n x n table.
sentences = [["the", "cat", "sat", "down"], ["the", "cat", "sat", "down", "on", "the", "warm", "mat"]]
lengths = [len(words) for words in sentences]
cells = [n * n for n in lengths]  # scores in the table
cell_growth = cells[1] / cells[0]  # the sentence doubles; the table quadruples
# The deterministic counts grow the same way: bytes of the table, FLOPs of QK^T and weights @ V.
bytes_growth = score_matrix_bytes(lengths[1]) / score_matrix_bytes(lengths[0])
flops_growth = attention_flops(lengths[1], 64) / attention_flops(lengths[0], 64)
assert cell_growth == bytes_growth == flops_growth == 4, "twice the tokens, four times the table"

# One table, 4.3 inches wide and 5 tall: the long sentence's 8 x 8 table, whose top-left
# corner is the short sentence's 4 x 4 table (its first four words). On a 390 px phone it fits on
# one screen and every label reads at 10 pt or more.
FONT = 12.5
words, small = sentences[1], lengths[0]
assert words[:small] == sentences[0], "the short sentence opens the long one"
fig, ax = plt.subplots(figsize=(4.3, 5.0), layout="constrained")
for i in range(len(words)):  # row i: query token i
    for j in range(len(words)):  # column j: key token j
        old = i < small and j < small  # the short sentence's table, inside the long one's
        face, edge = ("#9fc0e6", "#2f6db5") if old else ("#dde8f5", "#6f95c6")
        ax.add_patch(plt.Rectangle((j, -i - 1), 1, 1, fc=face, ec=edge, lw=0.8))
    ax.text(-0.15, -i - 0.5, words[i], ha="right", va="center", fontsize=FONT)
    ax.text(i + 0.5, 0.15, words[i], ha="center", va="bottom", fontsize=FONT, rotation=60)
ax.add_patch(plt.Rectangle((0, -small), small, small, fill=False, ec="#13315c", lw=2.2))
label = f"n = {small}:\n{cells[0]} scores"
ax.text(
    small / 2,
    -small / 2,
    label,
    ha="center",
    va="center",
    fontsize=FONT,
    color="#13315c",
    bbox=dict(fc="white", ec="none", pad=2),
)
n = lengths[1]
ax.text(n / 2, -n - 0.3, f"n = {n}: {cells[1]} scores", ha="center", va="top", fontsize=FONT)
ax.set_xlim(-2.0, 8.2)
ax.set_ylim(-n - 1.4, 2.4)
ax.set_aspect("equal")
ax.axis("off")
ax.set_title(f"Twice the tokens, {cell_growth:.0f} times the scores", fontsize=FONT + 0.5)
fig.savefig("score_table.svg", bbox_inches="tight", pad_inches=0.05)
