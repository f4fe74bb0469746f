import numpy as np

from attn import causal_mask, scaled_dot_product_attention, softmax


def attention(q, k, v, mask):
    """Masked attention: q, k (n, d_k), v (n, d_v), mask (n, n) -> (out (n, d_v), weights (n, n))."""
    weights = softmax(q @ k.T / np.sqrt(k.shape[-1]))
    weights = np.where(mask, weights, 0.0)
    return weights @ v, weights


rng = np.random.default_rng(0)
n, d_k = 6, 16
q, k, v = (rng.standard_normal((n, d_k)) for _ in range(3))
out, weights = attention(q, k, v, causal_mask(n))
_, right = scaled_dot_product_attention(q, k, v, mask=causal_mask(n), return_weights=True)
row_sums = weights.sum(axis=1)
print("row sums:", row_sums.round(3), "(attn:", right.sum(axis=1).round(3), ")")
