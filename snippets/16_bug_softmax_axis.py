import numpy as np

from attn import softmax


def attention(q, k, v):
    """Unmasked attention: q (n_q, d_k), k (n_k, d_k), v (n_k, d_v) -> (n_q, d_v)."""
    weights = softmax(q @ k.T / np.sqrt(k.shape[-1]), axis=0)
    return weights @ v, weights


rng = np.random.default_rng(0)
n, d_k = 6, 16
q, k, v = (rng.standard_normal((n, d_k)) for _ in range(3))
out, weights = attention(q, k, v)
row_sums = weights.sum(axis=1)
row_min, row_max = row_sums.min(), row_sums.max()
q2 = q.copy()
q2[-1] = rng.standard_normal(d_k)  # another query for the last token only
moved = np.abs(attention(q2, k, v)[0][0] - out[0]).max()
print(f"row sums from {row_min:.3f} to {row_max:.3f}; changing query 5 moves output 0 by up to {moved:.3f}")
