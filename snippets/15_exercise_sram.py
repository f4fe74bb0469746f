import itertools

from attn import flash_block_sizes, flash_hbm_accesses

n, d = 8192, 128
sizes = [16384, 32768, 65536, 131072]  # M in numbers
totals = [sum(flash_hbm_accesses(n, d, m)) for m in sizes]
ratios = [round(a / b, 2) for a, b in itertools.pairwise(totals)]
tiles = [flash_block_sizes(d, m) for m in sizes]
print(f"(B_r, B_c) for M = {sizes}: {tiles}")
print(f"HBM accesses: {totals}")
print(f"each doubling of M divides them by {ratios}")
