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

fig, ax = plt.subplots(figsize=(10, 5.6), layout="constrained")
small = lengths[0]
for left, words, n_cells in zip([0, 7.5], sentences, cells, strict=True):
    n = len(words)
    for i in range(n):  # row i: query token i
        for j in range(n):  # column j: key token j
            old = n > small and i < small and j < small  # the short sentence's table, inside the long one's
            face, edge = ("#9fc0e6", "#2f6db5") if old or n == small else ("#dde8f5", "#6f95c6")
            ax.add_patch(plt.Rectangle((left + j, -i - 1), 1, 1, fc=face, ec=edge, lw=0.8))
        ax.text(left - 0.15, -i - 0.5, words[i], ha="right", va="center", fontsize=9)
        ax.text(left + i + 0.5, 0.15, words[i], ha="center", va="bottom", fontsize=9, rotation=60)
    ax.text(left + n / 2, -n - 0.6, f"n = {n} tokens: {n_cells} scores", ha="center", va="top", fontsize=11)
quarter = f"the {small}-token\ntable: {cells[0] / cells[1]:.0%}\nof the cells"
ax.text(7.5 + small / 2, -small / 2, quarter, ha="center", va="center", fontsize=10, color="#13315c")
ax.set_xlim(-1.8, 16)
ax.set_ylim(-9.6, 2)
ax.set_aspect("equal")
ax.axis("off")
ax.set_title(f"Twice the tokens, {cell_growth:.0f} times the scores: one per pair (query row, key column)")
fig.savefig("score_table.svg")
