import numpy as np

from attn import causal_mask, init_multi_head, multi_head_attention, scaled_dot_product_attention


def causal_heads(x, params, h):
    """Causal multi-head self-attention: x (n, d_model) -> (n, d_model)."""
    n, d_model = x.shape
    q, k, v = (np.reshape(x @ params[w], (h, n, d_model // h)) for w in ("W_q", "W_k", "W_v"))
    heads = scaled_dot_product_attention(q, k, v, mask=causal_mask(n))  # (h, n, d_k)
    return np.reshape(heads, (n, d_model)) @ params["W_o"]


rng = np.random.default_rng(0)
n, d_model, h = 6, 16, 4
x = rng.standard_normal((n, d_model))
params = init_multi_head(rng, d_model)
gap = np.abs(causal_heads(x, params, h) - multi_head_attention(x, x, params, h, mask=causal_mask(n))).max()
changed = x.copy()
changed[0] = rng.standard_normal(d_model)  # change only the first token
moved = np.abs(causal_heads(changed, params, h) - causal_heads(x, params, h))[-1].max()
moved_right = np.abs(
    multi_head_attention(changed, changed, params, h, mask=causal_mask(n))
    - multi_head_attention(x, x, params, h, mask=causal_mask(n))
)[-1].max()
print(
    f"largest difference from attn: {gap:.2f}; changing token 0 moves the last output"
    f" by {moved:.3f} (attn: {moved_right:.3f})"
)
