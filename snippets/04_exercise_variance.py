import numpy as np

d_k, n_pairs = 64, 20000
variance_q = variance_k = 2.0  # components of q and k with variance 2, not 1
rng = np.random.default_rng(0)
q = rng.normal(0.0, np.sqrt(variance_q), size=(n_pairs, d_k))  # (n_pairs, d_k)
k = rng.normal(0.0, np.sqrt(variance_k), size=(n_pairs, d_k))  # (n_pairs, d_k)

scaled = (q * k).sum(axis=1) / np.sqrt(d_k)  # (n_pairs,): q . k / sqrt(d_k)
predicted = variance_q * variance_k  # Var(q . k) = d_k var_q var_k, divided by d_k
measured = scaled.var()
standard_error = predicted * np.sqrt((2 + 6 / d_k) / n_pairs)  # as on this page, times var_q var_k
assert abs(measured - predicted) < 3 * standard_error, "the measured variance strays from the prediction"

print(f"d_k = {d_k}, component variances {variance_q} and {variance_k}")
print(f"variance of q . k / sqrt(d_k): predicted {predicted}, measured {measured:.2f}")
print(f"standard error {standard_error:.3f}")
