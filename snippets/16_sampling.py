import matplotlib.pyplot as plt
import numpy as np

from attn import top_k, top_p, with_temperature

logits = np.array([3.0, 2.5, 2.0, 1.0, 0.5, 0.0, -1.0, -2.0])  # (V,): one step's scores, V = 8

p = with_temperature(logits, 1.0)
cold, hot = with_temperature(logits, 0.5), with_temperature(logits, 2.0)
k3, p90 = top_k(p, 3), top_p(p, 0.9)
top_k_mass = np.sort(p)[::-1][:3].sum()  # what top-k = 3 keeps of the mass
top_p_kept = int((p90 > 0).sum())
rng = np.random.default_rng(0)
draws = rng.choice(len(p), size=20_000, p=p90)
outside = float(np.isin(draws, np.flatnonzero(p90 == 0)).mean())
assert outside == 0.0 and np.isclose(k3.sum(), 1) and np.isclose(p90.sum(), 1)

print("p at T = 1:  ", p.round(3))
print(f"top token: {p.max():.3f} at T = 1, {cold.max():.3f} at T = 0.5, {hot.max():.3f} at T = 2")
print(f"top-k = 3 keeps {top_k_mass:.3f} of the mass; top-p = 0.9 keeps {top_p_kept} tokens")
print("after top-p:", p90.round(3))

# Two by two, 3.9 inches wide with 13 pt text: inside an answer's fold on a 390 px phone (shown
# about 290 px wide), every label reads at 10 pt.
plt.rcParams.update({"font.size": 13})
fig, axes = plt.subplots(2, 2, figsize=(3.9, 4.6), sharex=True, sharey=True, layout="constrained")
panels = [("T = 1", p), ("T = 0.5", cold), ("top-k, k = 3", k3), ("top-p, p = 0.9", p90)]
for ax, (title, dist) in zip(axes.flat, panels, strict=True):
    ax.bar(np.arange(len(dist)), dist, color="#3f51b5")
    ax.set_title(title, fontsize=13)
    ax.set_xticks(np.arange(0, len(dist), 2))
for ax in axes[:, 0]:
    ax.set_ylabel("probability")
fig.supxlabel("token (most probable first)", fontsize=13)
fig.savefig("sampling.svg")
