import inspect
import tracemalloc

import numpy as np

from attn import blockwise_attention, plain_attention, scaled_dot_product_attention
from attn.cost import score_block_bytes, score_matrix_bytes

seed = 0
d_k = d_v = 64
sizes = [256, 512, 1024, 2048, 4096]
MiB = 2**20


def peak_mib(attention, Q, K, V, calls=3):
    """Most memory allocated at once during one call, in MiB.

    The inputs already exist, so only what the call allocates counts. tracemalloc
    also counts what other threads allocate meanwhile (a Jupyter kernel runs a few),
    which can only add to a peak: the least of a few calls is the call's own.
    """
    peaks = []
    for _ in range(calls):
        tracemalloc.start()
        attention(Q, K, V)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return min(peaks) / MiB


# One call each on a tiny input first: a process's first call pays one-time
# set-up (lazy imports, caches) that would otherwise blur the first measurement.
tiny = np.ones((2, 64))
for attention in (plain_attention, scaled_dot_product_attention, blockwise_attention):
    attention(tiny, tiny, tiny)

rng = np.random.default_rng(seed)
rows = []
for n in sizes:
    Q = rng.standard_normal((n, d_k))  # (n, d_k)
    K = rng.standard_normal((n, d_k))  # (n, d_k)
    V = rng.standard_normal((n, d_v))  # (n, d_v)
    rows.append(
        [
            peak_mib(plain_attention, Q, K, V),
            peak_mib(scaled_dot_product_attention, Q, K, V),
            peak_mib(blockwise_attention, Q, K, V),
        ]
    )
plain_mib, default_mib, blockwise_mib = np.array(rows).T  # (len(sizes),) each
score_matrix_mib = np.array([score_matrix_bytes(n) for n in sizes]) / MiB
plain_in_matrices = plain_mib / score_matrix_mib  # n x n matrices at the peak
matrices_at_peak = int(round(plain_in_matrices[-1]))  # whole n x n matrices alive at once, largest n
plain_growth = plain_mib[1:] / plain_mib[:-1]  # per doubling of n
default_growth = default_mib[1:] / default_mib[:-1]
blockwise_growth = blockwise_mib[1:] / blockwise_mib[:-1]
# blockwise_attention's default block: block_size query rows by key_block_size keys.
defaults = inspect.signature(blockwise_attention).parameters
block_rows, block_keys = defaults["block_size"].default, defaults["key_block_size"].default
block_mib = score_block_bytes(block_rows, block_keys) / MiB

print("peak memory during one call, MiB (tracemalloc, least of 3 calls)")
print(f"{'n':>5} {'one n x n':>10} {'plain':>8} {'default':>8} {'blockwise':>10}")
for i, n in enumerate(sizes):
    print(f"{n:>5} {score_matrix_mib[i]:>10.1f} {plain_mib[i]:>8.1f} {default_mib[i]:>8.1f} {blockwise_mib[i]:>10.1f}")
print("plain's peak in n x n matrices:", plain_in_matrices.round(2))
print("growth per doubling of n, plain:    ", plain_growth.round(2))
print("growth per doubling of n, default:  ", default_growth.round(2))
print("growth per doubling of n, blockwise:", blockwise_growth.round(2))
print(f"blockwise: score block of {block_rows} x {block_keys}: {block_mib:.1f} MiB")
