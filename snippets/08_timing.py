import time

import matplotlib.pyplot as plt
import numpy as np

from attn import (blockwise_attention, plain_attention,
                  scaled_dot_product_attention)

seed = 0
d_k = d_v = 64  # one head
sizes = [128, 256, 512, 1024, 2048, 4096]
warmups, repeats = 2, 7
methods = [scaled_dot_product_attention, plain_attention, blockwise_attention]
short = ["default", "plain", "blockwise"]  # column names in the table


def median_ms(attention, Q, K, V):
    """Median wall time of one call in ms, after untimed warm-up calls."""
    for _ in range(warmups):
        attention(Q, K, V)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        attention(Q, K, V)
        times.append(time.perf_counter() - start)
    return 1000 * float(np.median(times))


rng = np.random.default_rng(seed)
ms = np.zeros((len(sizes), len(methods)))  # (sizes, methods)
for i, n in enumerate(sizes):
    Q, K, V = (rng.standard_normal((n, d_k)) for _ in range(3))  # (n, d_k)
    for j, attention in enumerate(methods):
        ms[i, j] = median_ms(attention, Q, K, V)
growth = ms[1:] / ms[:-1]  # t(n) / t(n / 2)

print(f"median ms of {repeats} calls after {warmups} warm-ups, d_k = {d_k}")
print(f"{'n':>5} |" + "|".join(f"{name:>10} {'growth':>6} " for name in short))
for i, n in enumerate(sizes):
    cells = [f"{ms[i, j]:>10.2f} {f'{growth[i - 1, j]:.1f}x' if i else '':>6} "
             for j in range(len(methods))]
    print(f"{n:>5} |" + "|".join(cells))

fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
for j, (attention, marker) in enumerate(zip(methods, "osD")):
    ax.loglog(sizes, ms[:, j], marker=marker, label=attention.__name__)
n = np.array(sizes, dtype=float)
k = sizes.index(1024)  # draw the n^2 line through the default's point there
ax.loglog(n, ms[k, 0] * (n / n[k]) ** 2, "k--", linewidth=1,
          label="$\\propto n^2$ (reference)")
ax.set_xticks(sizes, [str(s) for s in sizes])
ax.minorticks_off()
ax.set_xlabel("sequence length n")
ax.set_ylabel("median time per call (ms)")
ax.set_title(f"One head, $d_k = {d_k}$: time measured during this build")
ax.grid(True, which="major", alpha=0.3)
ax.legend()
fig.savefig("timing.svg")
