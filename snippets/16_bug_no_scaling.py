import numpy as np

from attn import softmax


def weights(q, k):
    """Attention weights: q (..., n_q, d_k), k (..., n_k, d_k) -> (..., n_q, n_k)."""
    return softmax(q @ np.swapaxes(k, -1, -2))


rng = np.random.default_rng(0)
rows, n, d_k = 2000, 10, 64
q = rng.standard_normal((rows, 1, d_k))
k = rng.standard_normal((rows, n, d_k))
top = weights(q, k).max(axis=-1)
top_right = softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)).max(axis=-1)
saturated, saturated_right = (top > 0.99).mean(), (top_right > 0.99).mean()
print(
    f"d_k = {d_k}: mean top weight {top.mean():.2f} (scaled: {top_right.mean():.2f});"
    f" rows above 0.99: {saturated:.2f} (scaled: {saturated_right:.2f})"
)
