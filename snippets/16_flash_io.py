import numpy as np

from attn import softmax

# What the backward pass of one head needs from the forward pass, and what FlashAttention keeps
# instead: each row's maximum m and sum l = sum exp(s - m); P is recomputed from L = m + log l.
n, d = 4096, 64
standard_kept = n * n            # the (n, n) weights P, stored for the backward pass
flash_kept = 2 * n               # m and l of every row (FlashAttention-2 keeps only L)
# HBM accesses in elements, by the orders of Dao et al. (2022), Theorem 2, constants set to 1:
# standard Theta(n d + n^2), FlashAttention Theta(n^2 d^2 / M) for an on-chip memory of M elements.
M = 100 * 1024 // 2              # about 100 KB of SRAM, in 16-bit elements
standard_io = n * d + n * n
flash_io = n * n * d * d // M
io_ratio = standard_io / flash_io
rng = np.random.default_rng(0)
s = rng.standard_normal((8, 16)) * 3                       # (rows, keys): a block of scores
L = s.max(1, keepdims=True) + np.log(np.exp(s - s.max(1, keepdims=True)).sum(1, keepdims=True))
assert np.abs(np.exp(s - L) - softmax(s)).max() < 1e-15   # P recomputed from L alone
print(f"n = {n}, d = {d}: kept for backward, standard {standard_kept:,} numbers,"
      f" FlashAttention {flash_kept:,} ({standard_kept // flash_kept}x fewer)")
print(f"HBM accesses (orders, constants 1): standard {standard_io:,}, FlashAttention about {flash_io:,}"
      f" at M = {M:,} ({io_ratio:.1f}x fewer)")
