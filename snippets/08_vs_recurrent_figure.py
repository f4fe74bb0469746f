import matplotlib.pyplot as plt
import numpy as np

from attn.cost import attention_flops, attention_layer_flops, recurrent_flops

d = 512
lengths = 2 ** np.arange(3, 14)  # n from 8 to 8192, doubling
layer = [attention_layer_flops(int(n), d) for n in lengths]
mix = [attention_flops(int(n), d) for n in lengths]
rnn = {kind: [g * recurrent_flops(int(n), d) for n in lengths] for kind, g in (("Elman", 1), ("GRU", 3), ("LSTM", 4))}

fig, ax = plt.subplots(figsize=(7.5, 4.6), layout="constrained")
ax.loglog(lengths, layer, "o-", color="tab:orange", label="attention layer: $8nd^2 + 4n^2d$")
ax.loglog(lengths, mix, "^--", color="tab:orange", alpha=0.6, label="its score-and-mix alone (Table 1): $4n^2d$")
ax.loglog(lengths, rnn["LSTM"], "D-", color="tab:green", label="LSTM layer: $16nd^2$")
ax.loglog(lengths, rnn["GRU"], "s-", color="tab:blue", label="GRU layer: $12nd^2$")
ax.loglog(lengths, rnn["Elman"], ":", color="grey", label="Elman layer: $4nd^2$")
for n, text in ((d, "$n = d$"), (2 * d, "$n = 2d$")):
    ax.axvline(n, color="grey", linestyle=":", linewidth=1)
    ax.text(n * 1.08, ax.get_ylim()[1] / 3, text, fontsize=10, color="grey")
ax.set_xscale("log", base=2)
ax.set_xticks(lengths[::2], [str(n) for n in lengths[::2]])
ax.set_xlabel("sequence length $n$ (tokens)")
ax.set_ylabel("FLOPs per layer (log scale)")
ax.set_title(f"FLOPs per layer at $d = {d}$")
ax.legend(loc="lower right", fontsize=9)
ax.grid(True, which="major", alpha=0.3)
fig.savefig("crossover.svg")
