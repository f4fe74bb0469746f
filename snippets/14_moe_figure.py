import matplotlib.pyplot as plt
import numpy as np

from attn import expert_capacity, init_moe, route_top_k, within_capacity

# The batch of 14_moe.py: 16 tokens, 8 experts, top 2, capacity factor 1.0.
rng = np.random.default_rng(0)
tokens, d_model, d_ff, E, k = 16, 8, 16, 8, 2
layer = init_moe(rng, d_model, d_ff, E)
x = rng.standard_normal((tokens, d_model))
chosen, gates, _ = route_top_k(x, layer["router"], k)
capacity = expert_capacity(tokens, E, 1.0, k)
keep = within_capacity(chosen, E, capacity)
grid = np.zeros((tokens, E))  # (tokens, E): the gate of each chosen expert, 0 elsewhere
np.put_along_axis(grid, chosen, gates, axis=1)

# The two panels stacked, 4.3 inches wide with 12.5 pt text: shown 342 px wide on a 390 px phone,
# every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, (top, bottom) = plt.subplots(2, 1, figsize=(4.3, 8.4), layout="constrained")
image = top.imshow(grid.T, cmap="Blues", vmin=0, vmax=1, aspect="auto")
for t, slot in zip(*np.nonzero(~keep), strict=True):
    top.text(t, chosen[t, slot], "×", ha="center", va="center", color="#c0392b", fontsize=15, weight="bold")
top.set_xlabel("token")
top.set_ylabel("expert")
top.set_xticks(range(0, tokens, 3))
top.set_yticks(range(E))
top.set_title("top-2 gates; × = over capacity,\ndropped", fontsize=12.5)
fig.colorbar(image, ax=top, label="gate", location="bottom", shrink=0.7, aspect=30)
load = np.bincount(chosen.ravel(), minlength=E)
served = np.bincount(chosen[keep], minlength=E)
bottom.bar(range(E), served, color="#2b6cb0", label="served")
bottom.bar(range(E), load - served, bottom=served, color="#e8a39b", label="dropped")
bottom.axhline(capacity, color="black", linestyle="--", linewidth=1, label=f"capacity = {capacity}")
bottom.set_xlabel("expert")
bottom.set_ylabel("assignments")
bottom.set_xticks(range(E))
bottom.set_title("assignments per expert,\ncapacity factor 1.0", fontsize=12.5)
fig.legend(loc="outside lower center", ncols=3, frameon=False, columnspacing=1.0, handlelength=1.2)
fig.savefig("routing.svg")
