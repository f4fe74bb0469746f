import matplotlib.pyplot as plt
import numpy as np

from attn import apply_rope

# One feature pair (d_k = 2) of a query and a key, rotated for two pairs of positions with the
# same offset: (m, p) = (1, 3) and (4, 6). The angle turned per position is 1 radian for this pair.
q, k = np.array([[1.0, 0.2]]), np.array([[0.7, 0.8]])  # (1, 2) each
pairs = [(1, 3), (4, 6)]
rotated = [(apply_rope(q, [m])[0], apply_rope(k, [p])[0]) for m, p in pairs]  # (2,), (2,) each
scores = [float(qr @ kr) for qr, kr in rotated]
assert np.isclose(scores[0], scores[1]), "the score depends only on the offset p - m"
assert np.allclose(
    [np.linalg.norm(v) for pair in rotated for v in pair], [np.linalg.norm(q), np.linalg.norm(k)] * 2
)  # a rotation keeps each length


def angle(v):
    return np.degrees(np.arctan2(v[1], v[0]))


# The two panels stacked, 4.2 inches wide with 12.5 pt text: shown 342 px wide on a 390 px phone,
# every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, axes = plt.subplots(2, 1, figsize=(4.2, 8.4), layout="constrained")
for ax, (m, p), (qr, kr), score in zip(axes, pairs, rotated, scores, strict=True):
    circle = np.linspace(0, 2 * np.pi, 200)
    ax.plot(np.cos(circle), np.sin(circle), color="#cccccc", linewidth=0.8)
    for v, colour in ((q[0], "#9ab7d6"), (k[0], "#f2c69b")):  # q and k before rotation
        ax.annotate("", v, (0, 0), arrowprops={"arrowstyle": "-|>", "color": colour, "linestyle": "--"})
    for v, colour, label in ((qr, "#1f5f9e", f"q at position\nm = {m}"), (kr, "#b3590f", f"k at position\np = {p}")):
        ax.annotate("", v, (0, 0), arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 2})
        ax.text(*(1.3 * v), label, ha="center", va="center", color=colour, linespacing=1.1)
    between = (angle(kr) - angle(qr)) % 360
    ax.set_title(f"(m, p) = ({m}, {p}): angle from q to k {between:.0f}°,\nq·k = {score:.3f}", fontsize=12.5)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.45, 1.45)
    ax.set_aspect("equal")
    ax.axhline(0, color="#eeeeee", linewidth=0.8, zorder=0)
    ax.axvline(0, color="#eeeeee", linewidth=0.8, zorder=0)
    ax.axis("off")
fig.suptitle(
    "RoPE turns q by m radians and k by p:\nmoving both by the same offset turns\nthem together", fontsize=12.5
)
fig.text(0.5, 0, "dashed: the same q and k before\nrotation (position 0)", ha="center", va="bottom")
fig.get_layout_engine().set(rect=(0, 0.05, 1, 0.95))
fig.savefig("rope_rotation.svg")
