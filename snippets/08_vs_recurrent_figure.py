import matplotlib.pyplot as plt
import numpy as np

from attn.cost import attention_flops, attention_layer_flops, recurrent_flops

d = 512
lengths = 2 ** np.arange(3, 14)  # n from 8 to 8192, doubling
layer = [attention_layer_flops(int(n), d) for n in lengths]
mix = [attention_flops(int(n), d) for n in lengths]
rnn = {kind: [g * recurrent_flops(int(n), d) for n in lengths] for kind, g in (("Elman", 1), ("GRU", 3), ("LSTM", 4))}

# 4.3 inches wide, legend under the plot: on a 390 px phone every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, ax = plt.subplots(figsize=(4.3, 6.4), layout="constrained")
ax.loglog(lengths, layer, "o-", color="tab:orange", label="attention layer: $8nd^2 + 4n^2d$")
ax.loglog(lengths, mix, "^--", color="tab:orange", alpha=0.6, label="its score-and-mix alone: $4n^2d$")
ax.loglog(lengths, rnn["LSTM"], "D-", color="tab:green", label="LSTM layer: $16nd^2$")
ax.loglog(lengths, rnn["GRU"], "s-", color="tab:blue", label="GRU layer: $12nd^2$")
ax.loglog(lengths, rnn["Elman"], ":", color="grey", label="Elman layer: $4nd^2$")
for n, text in ((d, "$n = d$"), (2 * d, "$n = 2d$")):
    ax.axvline(n, color="grey", linestyle=":", linewidth=1)
    ax.text(n * 1.1, 1.5e5, text, color="dimgrey", rotation=90, va="bottom")
ax.set_xscale("log", base=2)
ax.set_xticks(lengths[::2], [str(n) for n in lengths[::2]])
ax.set_xlabel("sequence length $n$ (tokens)")
ax.set_ylabel("FLOPs per layer")
ax.set_title(f"FLOPs per layer at $d = {d}$")
ax.grid(True, which="major", alpha=0.3)
fig.legend(loc="outside lower center", ncols=1, frameon=False)
fig.savefig("crossover.svg")
