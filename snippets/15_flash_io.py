# %% tiles
import numpy as np

from attn import (
    blockwise_attention,
    flash_attention_io,
    flash_block_sizes,
    flash_hbm_accesses,
    standard_attention_io,
    standard_hbm_accesses,
    weights_from_logsumexp,
)
from attn.core import dot_product_weights

rng = np.random.default_rng(0)
n, d, sram = 256, 16, 1024  # a toy head and an SRAM of M = 1024 numbers
q, k, v = rng.standard_normal((3, n, d))  # (n, d) each
b_r, b_c = flash_block_sizes(d, sram)
out_flash, lse, flash = flash_attention_io(q, k, v, sram)
out_std, standard = standard_attention_io(q, k, v)
tiled = blockwise_attention(q, k, v, block_size=b_r, key_block_size=b_c)  # the online softmax of page 08
same_output = bool(max(np.abs(out_flash - tiled).max(), np.abs(out_flash - out_std).max()) <= 1e-12)
counted = (flash.reads, flash.writes) == flash_hbm_accesses(n, d, sram)
counted_std = (standard.reads, standard.writes) == standard_hbm_accesses(n, d)
assert same_output, "FlashAttention's tiles must give the output of blockwise_attention and of standard attention"
assert counted_std, "the counted accesses of standard attention must equal the closed form"
assert counted, "the counted accesses of FlashAttention must equal the closed form"
print(f"tiles of {b_r} query rows x {b_c} keys")
print(f"standard:       {standard.reads:,} reads, {standard.writes:,} writes")
print(f"FlashAttention: {flash.reads:,} reads, {flash.writes:,} writes")

# %% scale
n, d = 4096, 64
sram = 100 * 1024 // 2  # assumed: 100 KiB of SRAM, in 16-bit numbers
standard_total = sum(standard_hbm_accesses(n, d))
flash_total = sum(flash_hbm_accesses(n, d, sram))
io_ratio = standard_total / flash_total
doubled = sum(flash_hbm_accesses(n, d, 2 * sram))
sram_gain = flash_total / doubled
key_tiles = [-(-n // flash_block_sizes(d, m)[1]) for m in (sram, 2 * sram)]  # T_c: whole tiles, rounded up
print(
    f"n = {n}, d = {d}, M = {sram:,}: standard {standard_total:,}, FlashAttention {flash_total:,}"
    f" HBM accesses ({io_ratio:.1f}x fewer)"
)
print(f"twice the SRAM: FlashAttention {doubled:,} ({sram_gain:.2f}x fewer again)")

# %% backward
rows, keys = slice(32, 48), slice(64, 80)  # one tile of the toy head above
rebuilt = weights_from_logsumexp(q[rows], k[keys], lse[rows])  # (16, 16)
exact = dot_product_weights(q, k)[rows, keys]  # (16, 16), from the whole (n, n) softmax
rebuilt_matches = bool(np.abs(rebuilt - exact).max() < 1e-15)
kept_flash, kept_standard = lse.size, lse.size**2  # numbers kept for backward: L, or all of P
assert rebuilt_matches, "a tile of P rebuilt from Q, K and L must equal the full softmax's"
print(f"kept for the backward pass: {kept_flash} numbers of L instead of {kept_standard:,} of P")
