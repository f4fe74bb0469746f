import numpy as np

from attn import softmax


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
print(f"max |formula - finite difference|: {fd_gap:.8f}",
      f"(below 1e-8: {fd_gap < 1e-8})")

# 2. Random scores as in the forward simulation, now differentiated.
d_ks = np.array([4, 16, 64, 256, 1024])
n_queries = 2_000
frozen_below = 0.01  # a softmax with ||J||_F below this passes ~nothing
jac, frozen, grad = {}, {}, {}  # per variant, one value per d_k
for d_k in d_ks:
    queries = rng.standard_normal((n_queries, d_k))  # (n_queries, d_k)
    keys = rng.standard_normal((n_queries, n, d_k))  # (n_queries, n, d_k)
    upstream = rng.standard_normal((n_queries, n))   # dL/dp, from above
    scores = np.einsum("nd,nkd->nk", queries, keys)  # (n_queries, n)
    variants = ("unscaled", scores), ("scaled", scores / np.sqrt(d_k))
    for name, logits in variants:
        J = softmax_jacobian(softmax(logits))         # (n_queries, n, n)
        norms = np.linalg.norm(J, axis=(1, 2))        # (n_queries,)
        dL_dz = np.einsum("qij,qi->qj", J, upstream)  # (n_queries, n)
        jac.setdefault(name, []).append(norms.mean())
        frozen.setdefault(name, []).append((norms < frozen_below).mean())
        grad.setdefault(name, []).append(np.linalg.norm(dL_dz, axis=1).mean())

jac_unscaled, jac_scaled = np.array(jac["unscaled"]), np.array(jac["scaled"])
frozen_unscaled = np.array(frozen["unscaled"])
frozen_scaled = np.array(frozen["scaled"])
grad_unscaled = np.array(grad["unscaled"])
grad_scaled = np.array(grad["scaled"])

print(f"        mean ||J||_F       share ||J||_F < {frozen_below}"
      "   mean ||dL/dz||")
print(" d_k  unscaled  scaled    unscaled  scaled        unscaled  scaled")
columns = (jac_unscaled, jac_scaled, frozen_unscaled, frozen_scaled,
           grad_unscaled, grad_scaled)
for d_k, *values in zip(d_ks, *columns):
    print("{:4d} {:9.3f} {:7.3f} {:11.3f} {:7.3f} {:15.3f} {:7.3f}"
          .format(d_k, *values))
