import matplotlib.pyplot as plt
import numpy as np

from attn import positional_encoding

n, d_model = 50, 64
pe = positional_encoding(n, d_model)  # (n, d_model)
shown = [0, 4, 10, 20]  # some sine dimensions, fast to slow

# 4.3 inches wide, 12.5 pt text, legend under the plot: shown 342 px wide on a 390 px phone,
# every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, (top, bottom) = plt.subplots(2, 1, figsize=(4.3, 8.6), layout="constrained", height_ratios=[1.1, 1])

image = top.imshow(pe, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
top.set_title(f"Sinusoidal positional encoding:\n{n} positions × {d_model} dimensions")
top.set_xlabel("dimension")
top.set_ylabel("position")
fig.colorbar(image, ax=top, label="value", location="bottom", shrink=0.8, aspect=30)

for dim in shown:
    bottom.plot(np.arange(n), pe[:, dim], marker=".", label=f"dimension {dim}")
bottom.set_title("A few columns: early dimensions\noscillate fast, later ones slowly")
bottom.set_xlabel("position")
bottom.set_ylabel("value")
fig.legend(loc="outside lower center", ncols=2, frameon=False)
fig.savefig("encoding.svg")
