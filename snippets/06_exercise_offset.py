import numpy as np

from attn import positional_encoding

d_model, n = 64, 1000
pe = positional_encoding(n, d_model)  # (n, d_model)
omega = 1 / 10000 ** (np.arange(0, d_model, 2) / d_model)  # (d_model / 2,): each pair's angle per position

smallest_offset, largest_offset = -20, 20
offsets = range(smallest_offset, largest_offset + 1)
# For each offset k: PE[pos] . PE[pos + k] at every pos where both exist, against sum_i cos(omega_i k).
gap = max(
    np.abs(
        (pe[max(0, -k) : n - max(0, k)] * pe[max(0, k) : n - max(0, -k)]).sum(axis=1) - np.cos(omega * k).sum()
    ).max()
    for k in offsets
)
depends_on_offset_only = bool(gap < 1e-10)
assert depends_on_offset_only, "PE[pos] . PE[pos + k] = sum_i cos(omega_i k) at every pos"

norm_squared = (pe * pe).sum(axis=1)  # (n,)
norm_squared_constant = bool(np.allclose(norm_squared, d_model / 2, rtol=0, atol=1e-12))
assert norm_squared_constant, "every encoding has squared length d_model / 2"
half_width = d_model / 2
pos, k = 10, 3
ahead = (pe[pos] * pe[pos + k]).sum()  # the token k positions later
behind = (pe[pos] * pe[pos - k]).sum()  # the token k positions earlier

print(f"PE[{pos}] . PE[{pos + k}] = {ahead:.3f}  PE[{pos}] . PE[{pos - k}] = {behind:.3f}")
