import numpy as np

from attn import causal_mask, init_multi_head, multi_head_attention


def causal_multi_head(x, W_q, W_k, W_v, W_o, h):
    """Multi-head causal self-attention in plain numpy: x (b, n, d_model) -> (b, n, d_model)."""
    b, n, d_model = x.shape
    d_k = d_model // h

    def split(w):  # (b, n, d_model) @ (d_model, d_model) -> (b, h, n, d_k)
        return (x @ w).reshape(b, n, h, d_k).transpose(0, 2, 1, 3)

    q, k, v = split(W_q), split(W_k), split(W_v)  # (b, h, n, d_k) each
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_k)  # (b, h, n, n)
    future = np.triu(np.ones((n, n), dtype=bool), k=1)  # (n, n): True where key j > query i
    scores = np.where(future, -np.inf, scores)  # (b, h, n, n)
    scores -= scores.max(axis=-1, keepdims=True)  # finite: the diagonal is never masked
    weights = np.exp(scores)  # (b, h, n, n); exp(-inf) = 0
    weights /= weights.sum(axis=-1, keepdims=True)  # every row sums to 1
    heads = weights @ v  # (b, h, n, d_k)
    concat = heads.transpose(0, 2, 1, 3).reshape(b, n, d_model)  # (b, n, h * d_k) = (b, n, d_model)
    return concat @ W_o, weights  # (b, n, d_model), (b, h, n, n)


rng = np.random.default_rng(0)
batch, n, d_model, h = 2, 5, 16, 4
x = rng.standard_normal((batch, n, d_model))  # (batch, n, d_model)
params = init_multi_head(rng, d_model)  # W_q, W_k, W_v, W_o: (d_model, d_model) each

out, weights = causal_multi_head(x, params["W_q"], params["W_k"], params["W_v"], params["W_o"], h)
library = multi_head_attention(x, x, params, h, mask=causal_mask(n))  # (batch, n, d_model)
assert np.abs(out - library).max() <= 1e-12, "differs from attn.multi_head_attention"
above = np.triu(np.ones((n, n), dtype=bool), k=1)  # (n, n): the future entries
assert np.all(weights[..., above] == 0.0), "a weight falls on the future"

# Causality: changing the last token must leave every earlier output as it was.
changed = x.copy()
changed[:, -1] = rng.standard_normal((batch, d_model))
out_changed, _ = causal_multi_head(changed, params["W_q"], params["W_k"], params["W_v"], params["W_o"], h)
assert np.array_equal(out_changed[:, :-1], out[:, :-1]), "changing the last token moved an earlier output"

print(f"x {x.shape} -> weights {weights.shape} -> out {out.shape}")
