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

# The gap between two unscaled scores of one query, q . k_1 - q . k_2, has variance 2 d_k.
rng = np.random.default_rng(0)
n_pairs = 20_000
q = rng.standard_normal((n_pairs, d_k))  # (n_pairs, d_k)
k_1, k_2 = rng.standard_normal((2, n_pairs, d_k))  # (n_pairs, d_k) each
gaps = np.einsum("nd,nd->n", q, k_1 - k_2)  # (n_pairs,)
sd_gap = np.sqrt(2 * d_k)
assert abs(gaps.std() / sd_gap - 1) < 0.03, "the gaps should have a standard deviation near sqrt(2 d_k)"
pct_gap_larger = round(100 * (np.abs(gaps) > lead).mean())  # a whole percentage

# Scaled, the same gap has standard deviation sqrt(2).
scaled_gaps = gaps / np.sqrt(d_k)  # (n_pairs,)
sd_gap_scaled = np.sqrt(2)
lead_in_gap_sd_scaled = lead / sd_gap_scaled
pct_scaled_gap_larger = 100 * (np.abs(scaled_gaps) > lead).mean()

print(f"lead needed for {target} of the weight among {n} keys: {lead:.3f} (= ln 81: {np.log(81):.3f})")
print(f"at d_k = {d_k}: {lead_in_sd_unscaled:.3f} standard deviations unscaled, {lead_in_sd_scaled:.3f} scaled")
print(f"gap between two unscaled scores: sd {sd_gap:.1f}, larger than {lead:.3f} in {pct_gap_larger:.0f}% of pairs")
print(f"scaled gap: sd {sd_gap_scaled:.2f}, lead = {lead_in_gap_sd_scaled:.2f} sd")
print(f"scaled gaps larger than the lead: {pct_scaled_gap_larger:.1f}%")
