import matplotlib.pyplot as plt
import numpy as np

from attn.cost import attention_crossover, attention_flops, attention_layer_flops, recurrent_flops

d = 512
lengths = 2 ** np.arange(3, 14)  # n from 8 to 8192, doubling
mix = [attention_flops(int(n), d) for n in lengths]
layer = [attention_layer_flops(int(n), d) for n in lengths]
elman = [recurrent_flops(int(n), d) for n in lengths]
crossover = attention_crossover(d)

fig, ax = plt.subplots(figsize=(7.5, 4.6), layout="constrained")
ax.loglog(lengths, layer, "o-", color="tab:orange",
          label="attention layer, with projections: $8nd^2 + 4n^2d$")
ax.loglog(lengths, mix, "^--", color="tab:orange", alpha=0.7,
          label="its score-and-mix alone (Table 1): $4n^2d$")
ax.loglog(lengths, elman, "s-", color="tab:blue", label="Elman recurrent layer: $4nd^2$")
ax.axvline(crossover, color="grey", linestyle=":", linewidth=1)
ax.annotate("score-and-mix = Elman\nat $n = d$", xy=(crossover, attention_flops(crossover, d)),
            xytext=(0.05, 0.62), textcoords="axes fraction", fontsize=10,
            arrowprops={"arrowstyle": "->", "color": "grey"})
ax.set_xscale("log", base=2)
ax.set_xticks(lengths[::2], [str(n) for n in lengths[::2]])
ax.set_xlabel("sequence length $n$ (tokens)")
ax.set_ylabel("FLOPs per layer (log scale)")
ax.set_title(f"FLOPs per layer at $d = {d}$")
ax.legend(loc="lower right", fontsize=9)
ax.grid(True, which="major", alpha=0.3)
fig.savefig("crossover.svg")
