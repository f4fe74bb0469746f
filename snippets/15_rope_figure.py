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
# The three panels stacked, 4.3 inches wide with 12.5 pt text and one legend under them: shown
# 342 px wide on a 390 px phone, every label reads at 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, (top, near, far) = plt.subplots(3, 1, figsize=(4.3, 9.4), layout="constrained")
pairs = np.arange(d_k // 2)
near_offsets, far_offsets = np.arange(97), np.arange(s * L - 129, s * L)


def score(offsets, speed):
    """rope(q, offset) . rope(k, 0) -> (len(offsets),)."""
    return apply_rope(np.tile(q, (len(offsets), 1)), offsets, theta=speed) @ apply_rope(k[None], [0], theta=speed)[0]


for name, speed in speeds.items():
    top.semilogy(pairs, (s * L - 1) * speed / (2 * np.pi), marker=".", label=name)
    near.plot(near_offsets, score(near_offsets, speed))
far.plot(far_offsets, score(far_offsets, speeds["interpolation"]), color="tab:orange")
far.plot(far_offsets, score(far_offsets / s, theta), "k.", markersize=3, label=f"RoPE at offset / {s}\n(trained)")
far.plot(far_offsets, score(far_offsets, theta), color="tab:blue", linewidth=0.7)
top.semilogy(pairs, (L - 1) * theta / (2 * np.pi), "k--", label=f"largest in training\n(offset {L - 1})")
top.yaxis.set_major_formatter("{x:g}")  # 0.1 ... 1000: full-size digits, no exponents
top.set_xlabel("feature pair i")
top.set_ylabel(f"turns at offset {s * L - 1}")
top.set_title(f"each pair's rotation at the longest\noffset; d_k = {d_k}, trained on\nL = {L}, s = {s}", fontsize=12.5)
near.set_xlabel("offset (seen in training)")
near.set_ylabel("score of one fixed\nq, k (seed 0)")
near.set_title("near offsets: YaRN stays close to RoPE", fontsize=12.5)
far.set_xticks([8064, 8128, 8191])
far.set_xlabel(f"offset (never seen: beyond {L})")
far.set_ylabel("score of one fixed\nq, k (seed 0)")
far.set_title("far offsets: interpolation replays\ntrained ones", fontsize=12.5)
fig.legend(
    [*top.get_lines(), *far.get_lines()[1:2]],
    [line.get_label() for line in [*top.get_lines(), *far.get_lines()[1:2]]],
    loc="outside lower center",
    ncols=2,
    frameon=False,
    markerscale=2,
)
fig.savefig("rope_extension.svg")
