# %% rotation
import numpy as np

from attn import positional_encoding

d_model, base = 512, 10000.0  # the base model's width and the paper's base
train_len, test_len = 512, 2048  # say training never saw a position past 511

pe = positional_encoding(test_len, d_model, base)  # (test_len, d_model): defined at every position
bounded = bool(np.abs(pe).max() <= 1.0)
assert bounded, "every value of the encoding lies in [-1, 1]"

# PE[pos + k] is one fixed linear map of PE[pos], a rotation of each sin/cos pair by k * omega,
# at positions seen in training and unseen ones alike.
k = 7
omega = 1 / base ** (np.arange(0, d_model, 2) / d_model)  # (d_model / 2,): radians per position
sin, cos = pe[:-k, 0::2], pe[:-k, 1::2]  # (test_len - k, d_model / 2)
rotated_sin = sin * np.cos(k * omega) + cos * np.sin(k * omega)
rotated_cos = cos * np.cos(k * omega) - sin * np.sin(k * omega)
same_map_everywhere = bool(np.allclose(pe[k:, 0::2], rotated_sin) and np.allclose(pe[k:, 1::2], rotated_cos))
assert same_map_everywhere, "a shift by k is the same rotation at every position"


# %% turns
# The slow pairs never complete a turn within the training length, so past it they take values
# that training never showed the model.
wavelength = 2 * np.pi / omega  # (d_model / 2,)
pairs = len(wavelength)
unfinished_pairs = int((wavelength > train_len).sum())
slowest_angle_train = (train_len - 1) * omega[-1]  # radians reached by the slowest pair
slowest_angle_test = (test_len - 1) * omega[-1]

print(f"pairs that do not complete a turn in {train_len} positions: {unfinished_pairs} of {pairs}")
print(
    f"slowest pair's angle: up to {slowest_angle_train:.4f} rad in training,"
    f" up to {slowest_angle_test:.4f} rad at position {test_len - 1}"
)
