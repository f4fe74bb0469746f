import matplotlib.pyplot as plt
import numpy as np

from attn import receptive_field, sliding_window_mask

n, w = 16, 4
# The two panels stacked, 4.3 inches wide with 12.5 pt text: shown 342 px wide on a 390 px phone,
# every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, (top, bottom) = plt.subplots(2, 1, figsize=(4.3, 7.0), layout="constrained", height_ratios=[2.6, 1])
top.imshow(sliding_window_mask(n, w), cmap="Blues", vmin=0, vmax=1.4)
top.set_title(f"sliding-window mask, w = {w}", fontsize=12.5)
top.set_xlabel("key position j")
top.set_ylabel("query position i")
reach = np.array([receptive_field(sliding_window_mask(n, w), layers)[-1] for layers in range(1, 5)])  # (4, n)
bottom.imshow(reach, cmap="Oranges", vmin=0, vmax=1.4, aspect="auto")
bottom.set_yticks(range(4), [f"{layers} layer{'s' * (layers > 1)}" for layers in range(1, 5)])
bottom.set_xlabel("input position")
bottom.set_title(f"what position {n - 1} can read, by depth", fontsize=12.5)
for row in range(4):
    bottom.text(n - 1 - (row + 1) * (w - 1), row, "←", ha="center", va="center", fontsize=12.5)
fig.savefig("window.svg")
