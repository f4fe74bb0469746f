import numpy as np

from attn import softmax

big = np.array([1e4, 1e4 - 1.0, 0.0])  # scores of 10^4

with np.errstate(over="ignore", invalid="ignore"):
    naive = np.exp(big) / np.exp(big).sum()  # e^10000 overflows to inf, and inf / inf is nan
shifted = softmax(big)  # subtracts the maximum first: exponents 0, -1, -10^4

largest_exponent = np.log(np.finfo(np.float64).max)  # exp overflows above this
naive_has_nan = bool(np.isnan(naive).any())
assert naive_has_nan
shifted_is_finite = bool(np.isfinite(shifted).all())
assert shifted_is_finite

print("without the shift:", naive)
print("attn.softmax:     ", shifted.round(3))
