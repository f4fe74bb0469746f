# %% measure
import numpy as np

from attn import softmax, softmax_backward


def softmax_jacobian(p):
    """J[i, j] = d p_i / d z_j = p_i (delta_ij - p_j): diag(p) - p p^T.

    p: (..., n) softmax weights -> (..., n, n)
    """
    outer = p[..., :, None] * p[..., None, :]  # (..., n, n): p p^T
    return p[..., :, None] * np.eye(p.shape[-1]) - outer


seed = 1
rng = np.random.default_rng(seed)
n = 10  # keys per query, as in the forward simulation

# 1. The formula against central finite differences, at one score vector.
z = 3 * rng.standard_normal(n)  # (n,)
eps = 1e-6
numeric = np.empty((n, n))  # column j: d p / d z_j
for j in range(n):
    step = eps * np.eye(n)[j]
    numeric[:, j] = (softmax(z + step) - softmax(z - step)) / (2 * eps)
fd_gap = np.abs(softmax_jacobian(softmax(z)) - numeric).max()
assert fd_gap < 1e-8, "the Jacobian formula disagrees with finite differences"

# 2. Random scores as in the forward simulation, now differentiated: at the scores z,
#    and one step further back, at the query q that produced them.
d_ks = np.array([4, 16, 64, 256, 1024])
n_queries = 2_000
frozen_below = 0.01  # a softmax is saturated when ||J||_F is below this
starved_fraction = 0.01  # a query is starved below this fraction of the scaled median
jac, frozen, frozen_count, grad = {}, {}, {}, {}  # per variant, one value per d_k
q_mean, q_median, q_small, q_top = {}, {}, {}, {}
frozen_fed = []  # unscaled: frozen softmaxes whose query is not starved, per d_k
for d_k in d_ks:
    queries = rng.standard_normal((n_queries, d_k))  # (n_queries, d_k)
    keys = rng.standard_normal((n_queries, n, d_k))  # (n_queries, n, d_k)
    upstream = rng.standard_normal((n_queries, n))  # dL/dp, from above
    scores = np.einsum("nd,nkd->nk", queries, keys)  # (n_queries, n)
    q_norms, j_norms = {}, {}  # per variant: (n_queries,)
    for name, scale in ("unscaled", 1.0), ("scaled", 1 / np.sqrt(d_k)):
        J = softmax_jacobian(softmax(scale * scores))  # (n_queries, n, n)
        norms = np.linalg.norm(J, axis=(1, 2))  # (n_queries,)
        dL_dz = np.einsum("qij,qi->qj", J, upstream)  # (n_queries, n)
        # z_j = scale * q . k_j, so dL/dq = scale * sum_j dL/dz_j k_j.
        dL_dq = scale * np.einsum("qj,qjd->qd", dL_dz, keys)  # (n_queries, d_k)
        q_norms[name], j_norms[name] = np.linalg.norm(dL_dq, axis=1), norms
        jac.setdefault(name, []).append(norms.mean())
        frozen.setdefault(name, []).append((norms < frozen_below).mean())
        frozen_count.setdefault(name, []).append(int((norms < frozen_below).sum()))
        grad.setdefault(name, []).append(np.linalg.norm(dL_dz, axis=1).mean())
    starved_below = starved_fraction * np.median(q_norms["scaled"])  # this width's line
    is_frozen = j_norms["unscaled"] < frozen_below  # (n_queries,)
    frozen_fed.append(int((q_norms["unscaled"][is_frozen] >= starved_below).sum()))
    for name, lengths in q_norms.items():
        largest_tenth = np.sort(lengths)[-n_queries // 10 :]  # the 10% largest
        q_mean.setdefault(name, []).append(lengths.mean())
        q_median.setdefault(name, []).append(np.median(lengths))
        q_small.setdefault(name, []).append(int((lengths < starved_below).sum()))
        q_top.setdefault(name, []).append(largest_tenth.sum() / lengths.sum())

# 3. dL/dq against finite differences, at the first query of the last width, scaled:
#    L = upstream . softmax(K q / sqrt(d_k)).
q0, K0, g0 = queries[0], keys[0], upstream[0]
loss = lambda q: g0 @ softmax(K0 @ q / np.sqrt(d_k))  # noqa: E731
numeric_q = np.array([(loss(q0 + eps * e) - loss(q0 - eps * e)) / (2 * eps) for e in np.eye(d_k)])
J0 = softmax_jacobian(softmax(K0 @ q0 / np.sqrt(d_k)))
formula_q = (J0.T @ g0) @ K0 / np.sqrt(d_k)  # (d_k,)
fd_gap_q = np.abs(formula_q - numeric_q).max()
assert fd_gap_q < 1e-8, "the formula for dL/dq disagrees with finite differences"

jac_unscaled, jac_scaled = np.array(jac["unscaled"]), np.array(jac["scaled"])
frozen_unscaled = np.array(frozen["unscaled"])
frozen_scaled = np.array(frozen["scaled"])
grad_unscaled = np.array(grad["unscaled"])
grad_scaled = np.array(grad["scaled"])
q_mean_unscaled, q_mean_scaled = np.array(q_mean["unscaled"]), np.array(q_mean["scaled"])
q_median_unscaled, q_median_scaled = np.array(q_median["unscaled"]), np.array(q_median["scaled"])
q_small_unscaled, q_small_scaled = np.array(q_small["unscaled"]), np.array(q_small["scaled"])
q_top_unscaled, q_top_scaled = np.array(q_top["unscaled"]), np.array(q_top["scaled"])
q_pct_small_unscaled = np.floor(100 * q_small_unscaled / n_queries + 0.5)  # whole percent, halves up
assert max(frozen_count["scaled"]) == 0, "a scaled softmax is saturated"
assert max(q_small["scaled"]) == 0, "a scaled query is starved"
assert np.all(np.diff(frozen_count["unscaled"]) > 0), "the saturated share does not grow with d_k"
assert np.all(np.diff(q_small_unscaled) > 0), "the starved share does not grow with d_k"
assert np.all(np.diff(jac_unscaled) < 0), "the unscaled softmax does not respond less as d_k grows"

print(f"{n} keys, {n_queries} queries: mean ||J||_F")
print(f"and % frozen (||J||_F < {frozen_below})")
print(" d_k  unscaled  scaled  frozen: unscaled")
columns = (jac_unscaled, jac_scaled, 100 * frozen_unscaled)
for d_k, *values in zip(d_ks, *columns, strict=True):
    print("{:4d} {:9.3f} {:7.3f} {:17.1f}".format(d_k, *values))

# %% keys100
# The same measurement with 100 keys per query: 2,000 queries in 20 groups of 100, the
# queries of a group sharing its 100 keys, as the tokens of one sequence do. Building J for
# every query would be large, so ||J||_F comes from the weights (exercise 3 derives it).
n_long, groups = 100, 20
long_frozen, long_small, long_median, long_jac = {}, {}, {}, {}  # per variant, one per d_k
for d_k in d_ks:
    queries = rng.standard_normal((groups, n_queries // groups, d_k))  # (20, 100, d_k)
    keys = rng.standard_normal((groups, n_long, d_k))  # (20, n_long, d_k)
    upstream = rng.standard_normal((groups, n_queries // groups, n_long))  # dL/dp
    scores = queries @ keys.transpose(0, 2, 1)  # (20, 100, n_long)
    q_norms = {}  # per variant: (n_queries,)
    for name, scale in ("unscaled", 1.0), ("scaled", 1 / np.sqrt(d_k)):
        p = softmax(scale * scores)  # (20, 100, n_long)
        dL_dz = softmax_backward(upstream, p)  # J^T dL/dp, without building J
        s2, s3 = (p**2).sum(axis=-1), (p**3).sum(axis=-1)  # (20, 100)
        norms = np.sqrt(np.maximum(s2 - 2 * s3 + s2**2, 0)).ravel()  # ||J||_F, (n_queries,)
        J_few = softmax_jacobian(p[0, :5])  # (5, n_long, n_long): with J, for 5 queries
        assert np.allclose(dL_dz[0, :5], np.einsum("qij,qi->qj", J_few, upstream[0, :5]))
        assert np.allclose(norms[:5], np.linalg.norm(J_few, axis=(1, 2)))
        q_norms[name] = np.linalg.norm(scale * dL_dz @ keys, axis=-1).ravel()
        long_frozen.setdefault(name, []).append(int((norms < frozen_below).sum()))
        long_jac.setdefault(name, []).append(norms.mean())
        long_median.setdefault(name, []).append(np.median(q_norms[name]))
    starved_below = starved_fraction * np.median(q_norms["scaled"])  # this width's line
    for name, lengths in q_norms.items():
        long_small.setdefault(name, []).append(int((lengths < starved_below).sum()))

long_small_unscaled, long_small_scaled = np.array(long_small["unscaled"]), np.array(long_small["scaled"])
long_median_unscaled = np.array(long_median["unscaled"])
long_median_scaled = np.array(long_median["scaled"])
long_pct_small_unscaled = np.floor(100 * long_small_unscaled / n_queries + 0.5)  # whole percent, halves up
long_jac_unscaled, long_jac_scaled = np.array(long_jac["unscaled"]), np.array(long_jac["scaled"])
long_jac_peak = d_ks[np.argmax(long_jac_unscaled)]  # unscaled, 100 keys: it rises, then falls
long_frozen_pct_unscaled = np.round(100 * np.array(long_frozen["unscaled"]) / n_queries)  # whole percent
assert max(long_frozen["scaled"]) == 0, "a scaled softmax is saturated"
assert max(long_small_scaled) == 0, "a scaled query is starved"
assert np.all(np.diff(long_frozen["unscaled"]) > 0), "the saturated share does not grow with d_k"
assert np.all(np.diff(long_small_unscaled) > 0), "the starved share does not grow with d_k"

print(f"{n_long} keys: starved queries (of {n_queries}), median gradient at the query")
print(" d_k   starved: unscaled  scaled   median: unscaled  scaled")
columns = (long_small_unscaled, long_small_scaled, long_median_unscaled, long_median_scaled)
for d_k, *values in zip(d_ks, *columns, strict=True):
    print("{:4d} {:18d} {:7d} {:17.2g} {:7.2f}".format(d_k, *values))

# %% details
frozen_pct_unscaled = np.round(100 * frozen_unscaled)  # whole percent of softmaxes, per d_k
frozen_fed_pct_unscaled = np.round(100 * np.array(frozen_fed) / np.array(frozen_count["unscaled"]))
q_top_pct_unscaled = np.round(100 * q_top_unscaled)  # whole percent of the summed lengths
print(f"10 keys, unscaled: % of softmaxes with ||J||_F < {frozen_below} (frozen),")
print("% of the frozen ones whose query is not starved, mean ||dL/dz|| (scaled too)")
print(" d_k   frozen  not starved   ||dL/dz||: unscaled  scaled")
columns = (frozen_count["unscaled"], frozen_fed, grad_unscaled, grad_scaled)
for d_k, count, fed, *values in zip(d_ks, *columns, strict=True):
    print("{:4d} {:7.1f} {:12.0f} {:20.3f} {:7.3f}".format(d_k, 100 * count / n_queries, 100 * fed / count, *values))
print("at the query: median and mean ||dL/dq||, % of the total held by the largest 10%")
print(" d_k   median: unscaled  scaled   mean: unscaled  scaled   top 10%")
columns = (q_median_unscaled, q_median_scaled, q_mean_unscaled, q_mean_scaled, 100 * q_top_unscaled)
for d_k, *values in zip(d_ks, *columns, strict=True):
    print("{:4d} {:16.2g} {:7.2f} {:15.3f} {:7.3f} {:9.0f}".format(d_k, *values))
print("100 keys, unscaled: mean ||J||_F", " ".join(f"{v:.3f}" for v in long_jac_unscaled))
print(f"highest at d_k = {long_jac_peak}")
