import tracemalloc

import matplotlib.pyplot as plt
import numpy as np

from attn import blockwise_attention, plain_attention, scaled_dot_product_attention
from attn.cost import score_matrix_bytes

# One call each on a tiny input first: a process's first call pays one-time
# set-up (lazy imports, caches) that would otherwise blur the first measurement.
methods = [scaled_dot_product_attention, plain_attention, blockwise_attention]
tiny = np.ones((2, 64))
for attention in methods:
    attention(tiny, tiny, tiny)

rng = np.random.default_rng(0)
sizes = [256, 512, 1024, 2048, 4096]
peak_mib = {f.__name__: [] for f in methods}
for n in sizes:
    Q, K, V = (rng.standard_normal((n, 64)) for _ in range(3))
    for attention in methods:
        tracemalloc.start()
        attention(Q, K, V)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        peak_mib[attention.__name__].append(peak / 2**20)

# 4.3 inches wide, legend under the plot: on a 390 px phone every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, ax = plt.subplots(figsize=(4.3, 5.6), layout="constrained")
for (name, peaks), marker in zip(peak_mib.items(), "osD", strict=True):
    ax.loglog(sizes, peaks, marker=marker, label=name)
matrix_mib = [score_matrix_bytes(n) / 2**20 for n in sizes]
ax.loglog(sizes, matrix_mib, "k--", linewidth=1, label="one $n \\times n$ float64 matrix")
ax.set_xticks(sizes, [str(n) for n in sizes])
ax.minorticks_off()
ax.set_xlabel("sequence length n")
ax.set_ylabel("peak memory of one call (MiB)")
ax.set_title("One head, $d_k = d_v = 64$")
ax.grid(True, which="major", alpha=0.3)
fig.legend(loc="outside lower center", ncols=1, frameon=False)
fig.savefig("memory.svg")
