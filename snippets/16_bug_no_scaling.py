import numpy as np

from attn import softmax


def weights(q, k):
    """Attention weights: q (..., n_q, d_k), k (..., n_k, d_k) -> (..., n_q, n_k)."""
    return softmax(q @ np.swapaxes(k, -1, -2))


rng = np.random.default_rng(0)
rows, n, d_k = 2000, 10, 64
q = rng.standard_normal((rows, 1, d_k))
k = rng.standard_normal((rows, n, d_k))
p = weights(q, k)[:, 0]  # (rows, n)
p_right = softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k))[:, 0]  # (rows, n)
saturated, saturated_right = int((p.max(-1) > 0.99).sum()), int((p_right.max(-1) > 0.99).sum())
saturated_pct = round(100 * saturated / rows)


def jacobian_norm(w):
    """||diag(w) - w w^T||_F per row, the softmax's Jacobian: w (rows, n) -> (rows,)."""
    return np.linalg.norm(w[:, :, None] * np.eye(n) - w[:, :, None] * w[:, None, :], axis=(1, 2))


# A saturated row's softmax barely responds: its Jacobian is under a tenth of a typical scaled row's.
assert jacobian_norm(p[p.max(-1) > 0.99]).max() < np.median(jacobian_norm(p_right)) / 10
print(
    f"d_k = {d_k}, {n} keys: mean top weight {p.max(-1).mean():.2f} (scaled: {p_right.max(-1).mean():.2f});"
    f" rows above 0.99: {saturated} of {rows} (scaled: {saturated_right})"
)
