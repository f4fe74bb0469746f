import numpy as np

from attn import interpolated_frequencies, rope_frequencies

# RoPE rotates pair i of a head by position * theta_i, theta_i = base^(-2i / d_k).
d_k, base = 128, 10_000
L_train, L_target = 4096, 16_384
theta = rope_frequencies(d_k, base)  # (d_k / 2,): one frequency per pair
seen = (L_train - 1) * theta  # the largest angle training saw, per pair
unseen_turn = int((seen < 2 * np.pi).sum())  # pairs that never made a full turn in training
# Position interpolation (Chen et al. 2023): use position * L_train / L_target.
scale = L_train / L_target
interpolated = (L_target - 1) * interpolated_frequencies(d_k, L_target / L_train, base)
assert np.all(interpolated < L_train * theta)  # less than one position past (L_train - 1) theta
# Extrapolating instead, a pair that never made a full turn reaches rotations training never saw.
beyond = int(((seen < 2 * np.pi) & ((L_target - 1) * theta > seen)).sum())
print(f"d_k = {d_k}, base {base}: {unseen_turn} of {d_k // 2} pairs turn less than once in {L_train} positions")
print(f"at position {L_target - 1}: unseen rotations in {beyond} pairs extrapolated")
print(f"interpolated (positions x {scale}): every angle within one position of the trained range")
