import numpy as np

from attn import causal_mask, padding_mask

# A batch of two target sequences padded to n = 4: lengths 4 and 2, padding at the end.
n = 4
lengths = [4, 2]
combined = causal_mask(n) & padding_mask(lengths, n)  # (n, n) & (batch, 1, n) -> (batch, n, n)


def fully_masked_rows(mask):
    """How many query rows may attend to no key at all."""
    return int((~mask.any(axis=-1)).sum())


right = fully_masked_rows(combined)
empty = fully_masked_rows(causal_mask(n) & padding_mask([0], n))  # a sequence of length 0
left_real = np.arange(n)[None, None, :] >= n - np.array(lengths)[:, None, None]  # padding at the start
left = fully_masked_rows(causal_mask(n) & left_real)

print(f"combined mask: {combined.shape}; sequence 1 (length {lengths[1]}):\n{combined[1].astype(int)}")
print(f"rows with no key, padding at the end: {right}  length 0: {empty}  padding at the start: {left}")
