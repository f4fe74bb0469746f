import matplotlib.pyplot as plt
import numpy as np

from attn import receptive_field, sliding_window_mask

n, w = 16, 4
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4.2), layout="constrained")
left.imshow(sliding_window_mask(n, w), cmap="Blues", vmin=0, vmax=1.4)
left.set_title(f"sliding-window mask, w = {w}")
left.set_xlabel("key position j")
left.set_ylabel("query position i")
reach = np.array([receptive_field(sliding_window_mask(n, w), layers)[-1] for layers in range(1, 5)])  # (4, n)
right.imshow(reach, cmap="Oranges", vmin=0, vmax=1.4, aspect="auto")
right.set_yticks(range(4), [f"{layers} layer{'s' * (layers > 1)}" for layers in range(1, 5)])
right.set_xlabel("input position")
right.set_title(f"what position {n - 1} can read, by depth")
for row in range(4):
    right.text(n - 1 - (row + 1) * (w - 1), row, "←", ha="center", va="center", fontsize=12)
fig.savefig("window.svg")
