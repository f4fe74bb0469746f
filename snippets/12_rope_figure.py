import matplotlib.pyplot as plt
import numpy as np

from attn import apply_rope, rope_frequencies

q, k = np.array([1.0, 0.2]), np.array([0.6, 0.8])  # one feature pair of a query and of a key
theta = rope_frequencies(2)[0]  # pair 0 turns 1 radian per position
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4.2), layout="constrained")
for m, p, colour in [(1, 0, "tab:blue"), (4, 3, "tab:orange")]:  # two placements, offset 1 each
    q_m, k_p = apply_rope(np.array([q]), [m])[0], apply_rope(np.array([k]), [p])[0]
    left.annotate("", q_m, (0, 0), arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 2})
    left.annotate("", k_p, (0, 0), arrowprops={"arrowstyle": "->", "color": colour, "linestyle": "--"})
    left.text(*(q_m * 1.12), f"q at {m}", color=colour, ha="center")
    left.text(*(k_p * 1.12), f"k at {p}", color=colour, ha="center")
left.add_patch(plt.Circle((0, 0), 1, fill=False, color="grey", linewidth=0.5))
left.set_xlim(-1.4, 1.4)
left.set_ylim(-1.4, 1.4)
left.set_aspect("equal")
left.set_title(f"one feature pair, {theta:.0f} rad per position")
positions = np.arange(32)
rng = np.random.default_rng(0)
q64, k64 = rng.standard_normal((2, 64))
q_at = apply_rope(np.tile(q64, (32, 1)), positions)  # (32, 64)
k_at = apply_rope(np.tile(k64, (32, 1)), positions)  # (32, 64)
scores = q_at @ k_at.T  # (32, 32): query position m, key position p
offset = positions[:, None] - positions  # (32, 32)
right.scatter(offset.ravel(), scores.ravel(), s=4)
right.set_xlabel("offset m - p")
right.set_ylabel("score rope(q, m) · rope(k, p)")
right.set_title("d_k = 64: 1024 placements, one score per offset")
fig.savefig("rope_rotation.svg")
