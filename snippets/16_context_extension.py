import numpy as np

from attn import interpolated_frequencies, rope_frequencies

# RoPE rotates pair i of a head by position * theta_i, theta_i = base^(-2i / d_k).
d_k, base = 128, 10_000
L_train, L_target = 4096, 16_384
theta = rope_frequencies(d_k, base)  # (d_k / 2,): one frequency per pair
slow = L_train * theta < 2 * np.pi  # slow pairs, as page 15 defines them: under one turn in L_train positions
unseen_turn = int(slow.sum())
# Position interpolation (Chen et al. 2023): use position * L_train / L_target.
scale = L_train / L_target
interpolated = (L_target - 1) * interpolated_frequencies(d_k, L_target / L_train, base)
assert np.all(interpolated < L_train * theta)  # less than one position past (L_train - 1) theta
# Extrapolating instead, a slow pair overshoots: past offset L_train's angle, one position beyond training.
beyond = int((slow & ((L_target - 1) * theta > L_train * theta)).sum())
print(f"d_k = {d_k}, base {base}: {unseen_turn} of {d_k // 2} pairs turn less than once in {L_train} positions")
print(f"at position {L_target - 1}: unseen rotations in {beyond} pairs extrapolated")
print(f"interpolated (positions x {scale}): every angle within one position of the trained range")
