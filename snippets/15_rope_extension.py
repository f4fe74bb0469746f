# %% setup
import numpy as np

from attn import (
    apply_rope,
    interpolated_frequencies,
    ntk_frequencies,
    rope_frequencies,
    yarn_frequencies,
    yarn_logit_factor,
)

# %% angles
d_k, L, s = 64, 2048, 4  # head width, trained length, extension factor: read s L = 8192 tokens
speeds = {
    "RoPE as trained": rope_frequencies(d_k),
    "interpolation": interpolated_frequencies(d_k, s),
    "NTK-aware": ntk_frequencies(d_k, s),
    "YaRN": yarn_frequencies(d_k, s, L),
}
theta = speeds["RoPE as trained"]  # (d_k / 2,)
short = L * theta < 2 * np.pi  # pairs that never make a full turn in L positions
unseen, step = {}, {}
for name, speed in speeds.items():
    # Training reached offset L - 1; a pair overshoots past offset L's angle, one position further.
    unseen[name] = int((short & ((s * L - 1) * speed > L * theta)).sum())
    step[name] = float(speed[0])  # radians between neighbours, fastest pair
    print(
        f"{name:>15}: {unseen[name]:2} of {short.sum()} slow pairs overshoot;"
        f" fastest pair turns {step[name]:.2f} rad per position"
    )
ntk_overshoot, interpolated_step = unseen["NTK-aware"], step["interpolation"]
# Interpolation's longest offset reaches (L - 1/s) theta: past offset L - 1, by less than one position.
interpolated_reach = (s * L - 1) * speeds["interpolation"] / theta  # (d_k / 2,), in trained positions
assert np.allclose(interpolated_reach, L - 1 / s), "interpolation reads offset s L - 1 as L - 1/s"
slow_pairs = int(short.sum())
logit_factor = yarn_logit_factor(s)

# %% scores
rng = np.random.default_rng(0)
q, k = rng.standard_normal((2, d_k))  # one query and one key, fixed content
offsets = np.arange(s * L)  # query at these positions, key at position 0


def scores(speed):
    """rope(q, offset) . rope(k, 0) at every offset, under the given rotation speeds -> (s L,)."""
    return apply_rope(np.tile(q, (s * L, 1)), offsets, theta=speed) @ apply_rope(k[None], [0], theta=speed)[0]


curves = {name: scores(speed) for name, speed in speeds.items()}
near = slice(0, 64)  # the nearest 64 offsets, where local patterns live
change_near = {name: float(np.abs(c[near] - curves["RoPE as trained"][near]).mean()) for name, c in curves.items()}
yarn_change = change_near["YaRN"]
stretched = bool(np.abs(curves["interpolation"][::s] - curves["RoPE as trained"][:L]).max() < 1e-9)
for name in speeds:
    print(f"{name:>15}: mean change of the score over offsets 0..63: {change_near[name]:.2f}")
assert stretched, "interpolation at offset s m must equal RoPE at offset m"
