import numpy as np

from attn.backward import softmax_backward

n = 10


def jacobian_norm(p):
    """||J||_F for J = d softmax / d scores at weights p: J = diag(p) - p p^T, built by attn."""
    J = softmax_backward(np.eye(len(p)), p)  # (n, n): row i is J^T e_i
    return np.linalg.norm(J)


def by_formula(p):
    """sqrt(S2 - 2 S3 + S2^2), with S2 = sum p^2 and S3 = sum p^3."""
    s2, s3 = (p**2).sum(), (p**3).sum()
    return np.sqrt(s2 - 2 * s3 + s2**2)


uniform = np.full(n, 1 / n)
two_way = np.zeros(n)
two_way[:2] = 0.5
one_hot = np.zeros(n)
one_hot[0] = 1.0
norms = [jacobian_norm(p) for p in (uniform, two_way, one_hot)]
assert all(np.isclose(jacobian_norm(p), by_formula(p), rtol=1e-12, atol=1e-15) for p in (uniform, two_way, one_hot)), (
    "sqrt(S2 - 2 S3 + S2^2) disagrees with the norm of attn's Jacobian"
)

# Uniform over m of the n keys: ||J||_F = sqrt(m - 1) / m, largest at m = 2.
uniform_over = [np.sqrt(m - 1) / m for m in range(1, n + 1)]
best_m = int(np.argmax(uniform_over)) + 1

# Many random distributions over the n keys: none beats the even two-way split.
rng = np.random.default_rng(0)
n_random = 100000
samples = rng.dirichlet(np.full(n, 0.3), size=n_random)  # (n_random, n)
s2, s3 = (samples**2).sum(axis=1), (samples**3).sum(axis=1)
largest_random = np.sqrt(s2 - 2 * s3 + s2**2).max()

print(f"||J||_F uniform over {n}: {norms[0]:.3f}  even split over 2: {norms[1]:.3f}  one-hot: {norms[2]:.3f}")
print(f"uniform over m keys, largest at m = {best_m}")
print(f"largest of {n_random} random distributions: {largest_random:.4f}")
