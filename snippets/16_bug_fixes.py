import numpy as np

from attn import (
    causal_mask,
    init_multi_head,
    layer_norm,
    multi_head_attention,
    padding_mask,
    scaled_dot_product_attention,
    softmax,
    split_heads,
)

rng = np.random.default_rng(0)
n, d_model, h = 6, 16, 4
d_k = d_model // h
x = rng.standard_normal((n, d_model))
q, k, v = (rng.standard_normal((n, d_k)) for _ in range(3))
params = init_multi_head(rng, d_model)
causal = causal_mask(n)
right = scaled_dot_product_attention(q, k, v, mask=causal)
fixed = {}

# 1, 3, 8: mask the scores (not the weights), keep the diagonal, divide by sqrt(d_k).
scores = np.where(np.tril(np.ones((n, n), dtype=bool)), q @ k.T / np.sqrt(d_k), -np.inf)
fixed["mask before softmax, k=0, scaled"] = softmax(scores) @ v
# 2: heads scale by their own width d_k.
qh, kh = split_heads(x @ params["W_q"], h), split_heads(x @ params["W_k"], h)  # (h, n, d_k)
_, heads_right = multi_head_attention(x, x, params, h, return_weights=True)
fixed["sqrt(d_k)"] = softmax(qh @ kh.transpose(0, 2, 1) / np.sqrt(d_k)) - heads_right
# 4: reshape to (n, h, d_k), then move the head axis forward.
split = [(x @ params[w]).reshape(n, h, d_k).transpose(1, 0, 2) for w in ("W_q", "W_k", "W_v")]
heads = scaled_dot_product_attention(*split, mask=causal)  # (h, n, d_k)
fixed["transpose"] = heads.transpose(1, 0, 2).reshape(n, d_model) @ params["W_o"] - multi_head_attention(
    x, x, params, h, mask=causal
)
# 5: normalise over the keys, the last axis.
fixed["softmax over keys"] = softmax(q @ k.T / np.sqrt(d_k), axis=-1) @ v - scaled_dot_product_attention(q, k, v)
# 7: normalise each token over its features.
mu, var = x.mean(axis=-1, keepdims=True), x.var(axis=-1, keepdims=True)
fixed["norm over features"] = (x - mu) / np.sqrt(var + 1e-5) - layer_norm(x)
# 9: the padding mask hides keys: shape (batch, 1, n).
qb, kb, vb = (rng.standard_normal((2, n, d_k)) for _ in range(3))
key_mask = (np.arange(n) < np.array([6, 3])[:, None])[:, None, :]  # (batch, 1, n)
fixed["mask keys"] = scaled_dot_product_attention(qb, kb, vb, mask=key_mask) - scaled_dot_product_attention(
    qb, kb, vb, mask=padding_mask([6, 3], n)
)
# 10: in float16, mask with -inf on the scores and zero the rows with no key at all, as attn does.
s16 = np.where(causal, (q @ k.T / np.sqrt(d_k)).astype(np.float16), np.float16(-np.inf))
fixed["float16 -inf"] = softmax(s16.astype(np.float32)) @ v - right
fixed["mask before softmax, k=0, scaled"] = fixed["mask before softmax, k=0, scaled"] - right
for name, gap in fixed.items():
    assert np.abs(gap).max() < 1e-3, name  # float16 scores: 1e-3; the rest ~1e-15
# 6: the targets are the inputs shifted left by one.
tokens = rng.integers(0, 10, n + 1)
inputs, targets = tokens[:-1], tokens[1:]
assert np.array_equal(targets[:-1], inputs[1:])
print(
    f"the fixes of all ten bugs match attn: largest gap {max(np.abs(g).max() for g in fixed.values()):.1e}"
    " (float16 scores)"
)
