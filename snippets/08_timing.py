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
fit_from = sizes.index(1024)  # the exponent is fitted from here to the largest n

rng = np.random.default_rng(seed)
inputs = [tuple(rng.standard_normal((n, d)) for d in (d_k, d_k, d_v)) for n in sizes]  # (n, d) each

# CPU time, not wall-clock time: time.process_time counts only the time this process ran, so
# waiting for a core while other programs run is left out. Rounds, not runs: every round times
# every method at every size once, so a burst of load hits all of them alike, and the fastest
# round is the least disturbed.
for _ in range(warmups):
    for Q, K, V in inputs:
        for attention in methods:
            attention(Q, K, V)
best = np.full((len(sizes), len(methods)), np.inf)  # (sizes, methods), seconds
for _ in range(repeats):
    for i, (Q, K, V) in enumerate(inputs):
        for j, attention in enumerate(methods):
            start = time.process_time()
            attention(Q, K, V)
            best[i, j] = min(best[i, j], time.process_time() - start)
ms = 1000 * best
growth = ms[1:] / ms[:-1]  # t(n) / t(n / 2)
# t = c n^p is a line of slope p on a log-log plot: fit p from n = 1024 on, per method.
exponent = np.polyfit(np.log(sizes[fit_from:]), np.log(ms[fit_from:]), 1)[0]  # (methods,)
plain_over_default = ms[-1, 1] / ms[-1, 0]
blockwise_over_default = ms[-1, 2] / ms[-1, 0]

print(f"CPU time, fastest of {repeats} rounds after {warmups} warm-up rounds, ms, d_k = {d_k}")
print(f"{'n':>5} |" + "|".join(f"{name:>10} {'growth':>6} " for name in short))
for i, n in enumerate(sizes):
    cells = [f"{ms[i, j]:>10.2f} {f'{growth[i - 1, j]:.1f}x' if i else '':>6} "
             for j in range(len(methods))]
    print(f"{n:>5} |" + "|".join(cells))
print(f"fitted exponent p in t ~ n^p, n = {sizes[fit_from]} to {sizes[-1]}:",
      "  ".join(f"{name} {p:.2f}" for name, p in zip(short, exponent)))
print(f"at n = {sizes[-1]}: plain / default {plain_over_default:.2f},"
      f" blockwise / default {blockwise_over_default:.2f}")

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
ax.set_ylabel(f"CPU time, fastest of {repeats} calls (ms)")
ax.set_title(f"One head, $d_k = {d_k}$: CPU time measured during this build")
ax.grid(True, which="major", alpha=0.3)
ax.legend()
fig.savefig("timing.svg")
