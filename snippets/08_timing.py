import platform
import time

import numpy as np

from attn import blockwise_attention, plain_attention, scaled_dot_product_attention

seed = 0
d_k = d_v = 64  # one head
sizes = [512, 1024, 2048]
warmups, repeats = 1, 3
methods = [scaled_dot_product_attention, plain_attention, blockwise_attention]
short = ["default", "plain", "blockwise"]  # column names in the table

rng = np.random.default_rng(seed)
inputs = [tuple(rng.standard_normal((n, d)) for d in (d_k, d_k, d_v)) for n in sizes]  # (n, d) each

# CPU time (time.process_time), so waiting for a core is left out. Every round times every
# method at every size once; the table keeps each call's fastest round.
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
# t = c n^p is a line of slope p on a log-log plot: fit p per method.
exponent = np.polyfit(np.log(sizes), np.log(ms), 1)[0]  # (methods,)

print(f"{platform.machine()}, {platform.system()}, numpy {np.__version__}, one thread")
print(f"CPU time, fastest of {repeats} rounds, ms, d_k = {d_k}")
print(f"{'n':>5}" + "".join(f"{name:>11}" for name in short))
for i, n in enumerate(sizes):
    print(f"{n:>5}" + "".join(f"{ms[i, j]:>11.2f}" for j in range(len(methods))))
print(
    f"fitted p in t ~ n^p, n = {sizes[0]} to {sizes[-1]}:",
    "  ".join(f"{name} {p:.2f}" for name, p in zip(short, exponent, strict=True)),
)
