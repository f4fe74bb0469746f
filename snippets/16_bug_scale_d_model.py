import numpy as np

from attn import init_multi_head, multi_head_attention, softmax, split_heads


def head_weights(x, params, h):
    """Per-head attention weights: x (n, d_model) -> (h, n, n)."""
    d_model = x.shape[-1]
    q, k = split_heads(x @ params["W_q"], h), split_heads(x @ params["W_k"], h)  # (h, n, d_k)
    return softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d_model))


rng = np.random.default_rng(0)
n, d_model, h = 10, 512, 8
x = 3 * rng.standard_normal((n, d_model))
params = init_multi_head(rng, d_model)
buggy = head_weights(x, params, h)
_, right = multi_head_attention(x, x, params, h, return_weights=True)  # (h, n, n)
top_buggy, top_right = buggy.max(-1).mean(), right.max(-1).mean()
print(
    f"mean top weight: {top_buggy:.3f} (attn: {top_right:.3f});"
    f" the scores are sqrt(h) = {np.sqrt(h):.2f} times too small"
)
