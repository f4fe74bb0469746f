import numpy as np

# Masking by adding a large negative constant, in float16 (max 65504). bfloat16 keeps float32's
# exponent: emulated here by rounding float32 to its top 16 bits.
f16 = np.float16
with np.errstate(over="ignore"):
    big = f16(-1e9)  # overflows to -inf
fmin, fmax = np.finfo(f16).min, float(np.finfo(f16).max)  # -65504, 65504
with np.errstate(over="ignore"):
    shifted = f16(fmin) + f16(-20.0)  # a masked score of -20: -65524, past the range
all_masked = np.full(4, -np.inf, dtype=f16)
with np.errstate(invalid="ignore"):
    row = np.exp(all_masked - all_masked.max())
    nan_row = row / row.sum()  # -inf - (-inf) = nan
finite = np.full(4, fmin, dtype=f16)
uniform = np.exp(finite - finite.max()) / np.exp(finite - finite.max()).sum()


def to_bf16(x):
    """Round float32 to bfloat16 (nearest, ties to even), returned as float32."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16
    return b.astype(np.uint32).view(np.float32)


bf16_big = float(to_bf16(-1e9))
assert np.isinf(big) and np.isinf(shifted) and np.isnan(nan_row).all()
print(f"float16: -1e9 -> {big}, finfo.min - 20 -> {shifted}; all-masked row with -inf: {nan_row}")
print(f"the same row filled with finfo.min: {uniform} (uniform: attends to masked keys)")
print(f"bfloat16: -1e9 -> {bf16_big:.4g}, finite")
