import numpy as np

from attn import dropout

# Dropout on a million copies of the number 1, at the paper's P_drop (section 5.4).
seed = 0
p_drop = 0.1
x = np.ones(1_000_000)
y, keep = dropout(x, p_drop, np.random.default_rng(seed))

dropped_share = 1 - keep.mean()
dropped_pct = 100 * dropped_share  # of the million entries
kept_value = float(y[keep][0])  # every survivor: 1 / (1 - p_drop)
mean, var = y.mean(), y.var()
predicted_var = p_drop / (1 - p_drop)  # E[y^2] - 1 = 1 / (1 - p) - 1
unscaled_mean = (x * keep).mean()  # zeroing without the scale
off, _ = dropout(x, p_drop, None)  # inference: no Generator, no dropout
identity_at_inference = bool(np.array_equal(off, x))
assert identity_at_inference, "without a Generator dropout returns its input"

print(f"dropped: {dropped_pct:.2f}%  survivors become {kept_value:.4f}")
print(f"mean {mean:.4f}  variance {var:.4f}  (p / (1 - p) = {predicted_var:.4f})")
print(f"without the scale the mean would be {unscaled_mean:.4f}")
