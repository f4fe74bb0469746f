# %% formula
import numpy as np

from attn import positional_encoding

n, d_model = 4, 8
base = 10000.0

# The paper's formula: dimensions 2i and 2i + 1 share one angle.
pos = np.arange(n)[:, None]  # (n, 1)
two_i = np.arange(0, d_model, 2)  # (d_model / 2,): even dimensions
angle = pos / base ** (two_i / d_model)  # (n, d_model / 2)
pe = np.empty((n, d_model))
pe[:, 0::2] = np.sin(angle)  # even dimensions
pe[:, 1::2] = np.cos(angle)  # odd dimensions

# Positions per full turn of each sin/cos pair.
wavelength = 2 * np.pi * base ** (two_i / d_model)  # (d_model / 2,)
assert np.allclose(pe, positional_encoding(n, d_model, base)), "the formula is attn.positional_encoding"

print("position 0:", pe[0].round(3))
print("position 1:", pe[1].round(3))
print("wavelength of each sin/cos pair:", wavelength.round(1))

# %% bound
# The paper's "10000 * 2 pi" is a limit: the longest wavelength falls short of it.
longest_over_paper_bound = wavelength[-1] / (2 * np.pi * base)  # base^(-2 / d_model)
print("longest wavelength / (2 pi base):", longest_over_paper_bound.round(3))
