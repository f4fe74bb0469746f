import numpy as np

from attn import softmax

scaled_c = np.array([1.0, 1.0, 2.0]) / np.sqrt(2)  # row C's scaled scores on this page
shift, stretch = 5.0, 2.0

weights = softmax(scaled_c)
shifted = softmax(scaled_c + shift)  # every score of the row plus the same constant
stretched = softmax(stretch * scaled_c)  # every score of the row times the same factor
shift_changes_nothing = bool(np.allclose(shifted, weights, rtol=0, atol=1e-15))
assert shift_changes_nothing
ratio = weights[2] / weights[0]  # e^(s_C - s_A)
stretched_ratio = stretched[2] / stretched[0]  # e^(2 (s_C - s_A)): the square of the old ratio

print(f"row C's weights:           {weights.round(3)}")
print(f"every score + {shift}:         {shifted.round(3)}  unchanged: {shift_changes_nothing}")
print(f"every score x {stretch}:         {stretched.round(3)}")
print(f"w_CC / w_CA: {ratio:.3f} -> {stretched_ratio:.3f} (the square: {ratio**2:.3f})")
