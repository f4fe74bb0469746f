import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from attn import flash_hbm_accesses, standard_hbm_accesses

# The two panels stacked, 4.3 inches wide with 12.5 pt text: shown 342 px wide on a 390 px phone,
# every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, (left, right) = plt.subplots(2, 1, figsize=(4.3, 8.6), layout="constrained", height_ratios=[1, 1.05])
tiles = 4  # 4 x 4 tiles of the n x n scores
for j in range(tiles):  # outer loop: key tile j is loaded once
    for i in range(tiles):  # inner loop: every query tile meets it
        order = j * tiles + i + 1
        left.add_patch(
            Rectangle((j, tiles - 1 - i), 1, 1, facecolor=plt.cm.Blues(0.2 + 0.7 * order / 16), edgecolor="white")
        )
        left.text(
            j + 0.5, tiles - 0.5 - i, str(order), ha="center", va="center", color="white" if order > 10 else "black"
        )
left.set_xlim(0, tiles)
left.set_ylim(0, tiles)
left.set_aspect("equal")
left.set_xticks(np.arange(tiles) + 0.5, [f"K{j}, V{j}" for j in range(tiles)])
left.set_yticks(np.arange(tiles) + 0.5, [f"Q{i}" for i in reversed(range(tiles))])
left.set_title("FlashAttention's order: each tile\nof S lives only in SRAM", fontsize=12.5)
d, sram = 64, 100 * 1024 // 2
lengths = 2 ** np.arange(9, 16)
right.loglog(lengths, [sum(standard_hbm_accesses(n, d)) for n in lengths], "o-", label="standard (S, P in HBM)")
right.loglog(
    lengths, [sum(flash_hbm_accesses(n, d, sram)) for n in lengths], "s-", label=f"FlashAttention, M = {sram:,}"
)
right.loglog(lengths, [sum(flash_hbm_accesses(n, d, 4 * sram)) for n in lengths], "^-", label="FlashAttention, 4M")
right.set_xticks(lengths[::2], [str(n) for n in lengths[::2]])  # full-size digits, no exponents
right.set_yticks([1e6, 1e7, 1e8, 1e9], ["1e6", "1e7", "1e8", "1e9"])
right.minorticks_off()
right.set_xlabel("sequence length n")
right.set_ylabel("HBM reads + writes\n(numbers), d = 64")
right.set_title("memory traffic of one head's\nforward pass", fontsize=12.5)
fig.legend(loc="outside lower center", frameon=False)
fig.savefig("flash.svg")
