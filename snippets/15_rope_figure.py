import matplotlib.pyplot as plt
import numpy as np

from attn import apply_rope, interpolated_frequencies, ntk_frequencies, rope_frequencies, yarn_frequencies

d_k, L, s = 64, 2048, 4
speeds = {
    "RoPE as trained": rope_frequencies(d_k),
    "interpolation": interpolated_frequencies(d_k, s),
    "NTK-aware": ntk_frequencies(d_k, s),
    "YaRN": yarn_frequencies(d_k, s, L),
}
theta = speeds["RoPE as trained"]
rng = np.random.default_rng(0)
q, k = rng.standard_normal((2, d_k))
offsets = np.arange(s * L)
fig, axes = plt.subplot_mosaic([["top", "top"], ["near", "far"]], figsize=(9, 7.5), layout="constrained")
top, near, far = axes["top"], axes["near"], axes["far"]
pairs = np.arange(d_k // 2)
near_offsets, far_offsets = np.arange(97), np.arange(s * L - 129, s * L)


def score(offsets, speed):
    """rope(q, offset) . rope(k, 0) -> (len(offsets),)."""
    return apply_rope(np.tile(q, (len(offsets), 1)), offsets, theta=speed) @ apply_rope(k[None], [0], theta=speed)[0]


for name, speed in speeds.items():
    top.semilogy(pairs, (s * L - 1) * speed / (2 * np.pi), marker=".", label=name)
    near.plot(near_offsets, score(near_offsets, speed), label=name)
far.plot(far_offsets, score(far_offsets, speeds["interpolation"]), color="tab:orange", label="interpolation")
far.plot(far_offsets, score(far_offsets / s, theta), "k.", markersize=3, label=f"RoPE at offset / {s} (trained)")
far.plot(far_offsets, score(far_offsets, theta), color="tab:blue", linewidth=0.7, label="RoPE as trained")
top.semilogy(pairs, L * theta / (2 * np.pi), "k--", label=f"largest in training (offset {L})")
top.set_xlabel("feature pair i")
top.set_ylabel(f"turns at offset {s * L - 1}")
top.set_title(f"each pair's rotation at the longest offset; d_k = {d_k}, trained on L = {L}, s = {s}")
top.legend(fontsize=8)
near.set_xlabel("offset (seen in training)")
near.set_ylabel("score of one fixed q, k (seed 0)")
near.set_title("near offsets: YaRN stays close to RoPE")
near.legend(fontsize=7)
far.set_xlabel(f"offset (never seen: beyond {L})")
far.set_title("far offsets: interpolation replays trained ones")
far.legend(fontsize=7)
fig.savefig("rope_extension.svg")
