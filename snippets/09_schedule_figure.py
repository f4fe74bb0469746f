import matplotlib.pyplot as plt
import numpy as np

from attn import learning_rate

steps = np.arange(1, 100_001)
# 4.3 inches wide with 12.5 pt text: shown 342 px wide on a 390 px phone, every label reads at
# 10 pt or more.
plt.rcParams.update({"font.size": 12.5})
fig, ax = plt.subplots(figsize=(4.3, 3.8), layout="constrained")
for d_model, style in ((512, "-"), (1024, "--")):
    rates = [learning_rate(int(step), d_model, 4000) for step in steps]
    ax.plot(
        steps, rates, style, color="tab:blue" if d_model == 512 else "tab:orange", label=f"$d_{{model}}$ = {d_model}"
    )
peak = learning_rate(4000, 512, 4000)
ax.plot([4000], [peak], "o", color="black")
ax.annotate(f"peak at step 4000:\n{peak:.2e}", (4000, peak), xytext=(12000, peak * 0.8))
ax.axvline(4000, color="grey", linewidth=0.8, linestyle=":")
ax.xaxis.set_major_formatter(lambda step, _: f"{step / 1000:.0f}k")
ax.set_xlabel("training step")
ax.set_ylabel("learning rate")
ax.set_title("Equation 3, warmup_steps = 4000")
ax.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
ax.legend()
fig.savefig("schedule.svg")
