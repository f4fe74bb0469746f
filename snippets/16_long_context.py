import numpy as np

from attn import scaled_dot_product_attention, sliding_window_mask
from attn.cost import attention_flops

# Counting: how many query-key pairs each scheme scores, for one head at long n.
n, w, d = 8192, 512, 64  # sequence length, window, head width
full = n * n  # every pair
causal = n * (n + 1) // 2  # key j <= query i
window = sum(min(i + 1, w) for i in range(n))  # the last w keys up to and including i
linear_flops = 4 * n * d * d  # phi(K)^T V, then phi(Q) times it: (d, d) state, 2 FLOPs per multiply-add
window_pct = 100 * window / causal
n_over_d = attention_flops(n, d) // linear_flops
print(f"n = {n}, window w = {w}, head width d = {d}")
print(f"pairs scored: full {full:,}  causal {causal:,}  sliding window {window:,} ({window_pct:.1f}% of causal)")
print(
    f"score-and-mix FLOPs, full: {attention_flops(n, d):,}; linear attention's two products: {linear_flops:,}"
    f" (n / d = {n_over_d}x fewer)"
)

# A sliding window is a mask: check it on a small case against attention over the window's keys alone.
rng = np.random.default_rng(0)
m, wm, dk = 12, 4, 8
q, k, v = (rng.standard_normal((m, dk)) for _ in range(3))  # (m, dk) each
band = sliding_window_mask(m, wm)  # (m, m): keys i - wm + 1 .. i
banded = scaled_dot_product_attention(q, k, v, mask=band)  # (m, dk)


def window_only(r):
    """Row r attends to keys max(0, r - wm + 1) .. r, sliced out: (dk,)."""
    lo = max(0, r - wm + 1)
    return scaled_dot_product_attention(q[r : r + 1], k[lo : r + 1], v[lo : r + 1])[0]


sliced = np.stack([window_only(r) for r in range(m)])  # (m, dk)
assert np.abs(banded - sliced).max() <= 1e-12, "the band mask differs from attention over each window"
most_keys = int(band.sum(axis=1).max())
print(f"keys per query with the band mask: at most {most_keys}")
