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

# The two tables one above the other, 4.3 inches wide: on a 390 px phone every label reads at 10 pt
# or more. Cells keep the same size in both, so the long sentence's table is visibly 4 times larger.
FONT = 12.5
fig, ax = plt.subplots(figsize=(4.3, 9.4), layout="constrained")
small = lengths[0]
tops = [0.0, -(small + 3.6)]  # each table's top edge
for words, n_cells, top in zip(sentences, cells, tops, strict=True):
    n = len(words)
    for i in range(n):  # row i: query token i
        for j in range(n):  # column j: key token j
            old = n > small and i < small and j < small  # the short sentence's table, inside the long one's
            face, edge = ("#9fc0e6", "#2f6db5") if old or n == small else ("#dde8f5", "#6f95c6")
            ax.add_patch(plt.Rectangle((j, top - i - 1), 1, 1, fc=face, ec=edge, lw=0.8))
        ax.text(-0.15, top - i - 0.5, words[i], ha="right", va="center", fontsize=FONT)
        ax.text(i + 0.5, top + 0.15, words[i], ha="center", va="bottom", fontsize=FONT, rotation=60)
    ax.text(n / 2, top - n - 0.3, f"n = {n} tokens: {n_cells} scores", ha="center", va="top", fontsize=FONT)
quarter = f"the {small}-token\ntable: {cells[0] / cells[1]:.0%}\nof the cells"
ax.text(small / 2, tops[1] - small / 2, quarter, ha="center", va="center", fontsize=FONT, color="#13315c")
ax.set_xlim(-2.0, 8.2)
ax.set_ylim(tops[1] - lengths[1] - 1.4, 2.4)
ax.set_aspect("equal")
ax.axis("off")
ax.set_title(f"Twice the tokens, {cell_growth:.0f} times the scores", fontsize=FONT + 0.5)
fig.savefig("score_table.svg", bbox_inches="tight", pad_inches=0.05)
