import matplotlib.pyplot as plt
import numpy as np

from attn.cost import attention_crossover, attention_flops, recurrent_flops

d = 512
lengths = 2 ** np.arange(3, 14)  # n from 8 to 8192, doubling
attention = [attention_flops(int(n), d) for n in lengths]
recurrent = [recurrent_flops(int(n), d) for n in lengths]
crossover = attention_crossover(d)

fig, ax = plt.subplots(figsize=(7.5, 4.6), layout="constrained")
ax.loglog(lengths, attention, "o-", color="tab:orange", label="self-attention: grows like $n^2 d$")
ax.loglog(lengths, recurrent, "s-", color="tab:blue", label="recurrent layer: grows like $n d^2$")
ax.axvspan(lengths[0], crossover, color="tab:orange", alpha=0.08)
ax.axvline(crossover, color="grey", linestyle="--", linewidth=1)
ax.annotate("equal at $n = d$", xy=(crossover, attention_flops(crossover, d)),
            xytext=(0.68, 0.3), textcoords="axes fraction", fontsize=11,
            arrowprops={"arrowstyle": "->", "color": "grey"})
ax.text(0.33, 0.9, "attention cheaper", transform=ax.transAxes, color="tab:orange", fontsize=11, ha="center")
ax.text(0.84, 0.5, "recurrence cheaper", transform=ax.transAxes, color="tab:blue", fontsize=11, ha="center")
ax.set_xscale("log", base=2)
ax.set_xticks(lengths[::2], [str(n) for n in lengths[::2]])
ax.set_xlabel("sequence length $n$ (tokens)")
ax.set_ylabel("FLOPs per layer (log scale)")
ax.set_title(f"Position-mixing cost per layer at $d = {d}$")
ax.legend(loc="lower right")
ax.grid(True, which="major", alpha=0.3)
fig.savefig("crossover.svg")
