# %% two_scores
import numpy as np

from attn import softmax

# How far the first score is ahead of the second.
leads = (1.0, 8.0)
slopes = []
for lead in leads:
    z = np.array([lead, 0.0])  # (2,): two scores
    p = softmax(z)  # (2,)
    # The first score raised by 0.1.
    nudged = softmax(z + np.array([0.1, 0.0]))
    # How fast p_0 moves with z_0: p_0 (1 - p_0) = p_0 p_1.
    slopes.append(p[0] * p[1])
    print(f"lead {lead:.0f}: weights {p[0]:.4f} {p[1]:.4f}", end="   ")
    print(f"first score +0.1: {nudged[0]:.4f} {nudged[1]:.4f}   slope {slopes[-1]:.5f}")

# %% check
# The slope against a central difference, and how many times smaller it is at the larger lead.
z = np.array([leads[0], 0.0])
step = np.array([1e-6, 0.0])
numeric = (softmax(z + step)[0] - softmax(z - step)[0]) / 2e-6
assert abs(numeric - slopes[0]) < 1e-8, "p_0 p_1 is not the slope of the first weight"
ratio = round(slopes[0] / slopes[1], -2)  # about 586: 600 to the hundred
