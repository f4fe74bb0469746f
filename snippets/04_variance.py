import numpy as np

from attn import softmax

seed = 0
rng = np.random.default_rng(seed)
d_ks = np.array([4, 16, 64, 256, 1024])
n_pairs = 20_000  # independent (q, k) pairs per width, for the variance
n_queries = 2_000  # queries per width, for the softmax
n = 10  # keys each query is scored against

variance, top_unscaled, top_scaled = [], [], []
for d_k in d_ks:
    # Components are independent, mean 0, variance 1.
    q = rng.standard_normal((n_pairs, d_k))  # (n_pairs, d_k)
    k = rng.standard_normal((n_pairs, d_k))  # (n_pairs, d_k)
    dots = (q * k).sum(axis=1)  # (n_pairs,): q . k per pair
    variance.append(dots.var())

    # Drawn right after q and k: this order fixes every number below.
    queries = rng.standard_normal((n_queries, d_k))  # (n_queries, d_k)
    keys = rng.standard_normal((n_queries, n, d_k))  # (n_queries, n, d_k)
    scores = np.einsum("nd,nkd->nk", queries, keys)  # (n_queries, n)
    top_unscaled.append(softmax(scores).max(axis=1).mean())
    top_scaled.append(softmax(scores / np.sqrt(d_k)).max(axis=1).mean())

variance = np.array(variance)
ratio = variance / d_ks  # near 1 if var(q . k) = d_k
top_unscaled, top_scaled = np.array(top_unscaled), np.array(top_scaled)

# How far var / d_k strays by chance alone: E[(q.k)^4] = 3 d_k^2 + 6 d_k, so the sample
# variance of n_pairs dot products has a relative standard error of sqrt((2 + 6 / d_k) / n_pairs).
standard_error = np.sqrt((2 + 6 / d_ks) / n_pairs)  # (5,)
assert np.all(np.abs(ratio - 1) < 3 * standard_error), "var(q . k) / d_k strays from 1 by more than chance"
score_sd = np.sqrt(d_ks)  # (5,): the standard deviation the argument predicts, sqrt(d_k)

# What a lead does to softmax: one key 5 above nine others takes most of the weight.
lead = 5.0
lead_weight = softmax(np.array([lead] + [0.0] * (n - 1)))[0]

print(" d_k   var(q.k)  var/d_k   largest weight: unscaled  scaled")
for row in zip(d_ks, variance, ratio, top_unscaled, top_scaled, strict=True):
    print("{:4d} {:10.2f} {:8.2f} {:25.2f} {:7.2f}".format(*row))
print("standard error of var/d_k:", standard_error.round(3))
print(f"{n} keys, one of them 5 above the rest: it gets {lead_weight:.3f}")
