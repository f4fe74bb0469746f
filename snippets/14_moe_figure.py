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

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.8), layout="constrained", width_ratios=[1.1, 1])
image = left.imshow(grid.T, cmap="Blues", vmin=0, vmax=1, aspect="auto")
for t, slot in zip(*np.nonzero(~keep), strict=True):
    left.text(t, chosen[t, slot], "×", ha="center", va="center", color="#c0392b", fontsize=15, weight="bold")
left.set_xlabel("token")
left.set_ylabel("expert")
left.set_xticks(range(0, tokens, 3))
left.set_yticks(range(E))
left.set_title("top-2 gates; × = over capacity, dropped", fontsize=10.5)
fig.colorbar(image, ax=left, label="gate", shrink=0.8)
load = np.bincount(chosen.ravel(), minlength=E)
served = np.bincount(chosen[keep], minlength=E)
right.bar(range(E), served, color="#2b6cb0", label="served")
right.bar(range(E), load - served, bottom=served, color="#e8a39b", label="dropped")
right.axhline(capacity, color="black", linestyle="--", linewidth=1, label=f"capacity = {capacity}")
right.set_xlabel("expert")
right.set_ylabel("assignments")
right.set_xticks(range(E))
right.set_title("assignments per expert, capacity factor 1.0", fontsize=10.5)
right.legend()
fig.savefig("routing.svg")
