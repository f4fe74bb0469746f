import matplotlib.pyplot as plt
import numpy as np

from attn import positional_encoding

n, d_model = 50, 64
pe = positional_encoding(n, d_model)  # (n, d_model)
shown = [0, 4, 10, 20]  # some sine dimensions, fast to slow

fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), layout="constrained")

image = top.imshow(pe, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
top.set_title(f"Sinusoidal positional encoding: {n} positions x {d_model} dimensions")
top.set_xlabel("dimension")
top.set_ylabel("position")
fig.colorbar(image, ax=top, label="value")

for dim in shown:
    bottom.plot(np.arange(n), pe[:, dim], marker=".", label=f"dimension {dim}")
bottom.set_title("A few of its columns: early dimensions oscillate fast, later ones slowly")
bottom.set_xlabel("position")
bottom.set_ylabel("value")
bottom.set_ylim(-1.6, 1.15)  # room for the legend below the curves
bottom.legend(loc="lower center", ncols=len(shown), fontsize=9)
fig.savefig("encoding.svg")
