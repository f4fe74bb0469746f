import numpy as np

from attn import softmax

n, target = 10, 0.9  # ten keys; the best one should get 90% of the weight

# e^L / (e^L + (n - 1)) = target  gives  L = ln(target (n - 1) / (1 - target))
lead = np.log(target * (n - 1) / (1 - target))
scores = np.zeros(n)
scores[0] = lead  # one key `lead` above nine equal ones
best_weight = softmax(scores)[0]
assert abs(best_weight - target) < 1e-12, "the lead ln 81 should give the best key 0.9 of the weight"

d_k = 64
sd_unscaled = np.sqrt(d_k)  # the standard deviation of a score, unit-variance components
sd_scaled = sd_unscaled / np.sqrt(d_k)  # after the division: 1
lead_in_sd_unscaled = lead / sd_unscaled
lead_in_sd_scaled = lead / sd_scaled

print(f"lead needed for {target} of the weight among {n} keys: {lead:.3f} (= ln 81: {np.log(81):.3f})")
print(f"at d_k = {d_k}: {lead_in_sd_unscaled:.3f} standard deviations unscaled, {lead_in_sd_scaled:.3f} scaled")
