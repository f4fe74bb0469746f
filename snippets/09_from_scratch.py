# %% setup
import numpy as np

import attn

# The decoder-only model above: its sizes, and its weights drawn with seed 0.
config = attn.Config(vocab=12, d_model=16, h=2, d_ff=32, N=2, pad=0)
params = attn.init_decoder_only(np.random.default_rng(0), config)  # E and N layers of weights
tokens = np.array([[1, 5, 7, 2, 9, 4]])  # (b, n) = (1, 6): one sequence, no padding


# %% embed
def embed(tokens, E):
    """Token ids (b, n) -> vectors (b, n, d_model): a row of E, scaled, plus a position."""
    n, d_model = tokens.shape[-1], E.shape[1]
    angle = np.arange(n)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)  # (n, d_model/2)
    pe = np.zeros((n, d_model))  # (n, d_model): sin in the even columns, cos in the odd
    pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle)
    return E[tokens] * np.sqrt(d_model) + pe  # (b, n, d_model)


# %% head
def attention_head(q, k, v):
    """One causal head: q, k (b, n, d_k) and v (b, n, d_v) -> (b, n, d_v)."""
    n, d_k = q.shape[-2:]
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(d_k)  # (b, n, n): query i against key j
    future = np.triu(np.ones((n, n), dtype=bool), k=1)  # (n, n): True where key j > query i
    scores = np.where(future, -np.inf, scores)  # (b, n, n): the future is hidden
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))  # (b, n, n); exp(-inf) = 0
    weights = weights / weights.sum(axis=-1, keepdims=True)  # each row sums to 1
    return weights @ v  # (b, n, d_v): a weighted average of the values


# %% multi_head
def multi_head(x, p, h):
    """Concat(head_1, ..., head_h) W^O: x (b, n, d_model) -> (b, n, d_model)."""
    d_k = x.shape[-1] // h  # d_k = d_v = d_model / h
    heads = []
    for i in range(h):
        cols = slice(i * d_k, (i + 1) * d_k)  # head i's columns of W^Q, W^K and W^V
        q, k, v = (x @ p[w][:, cols] for w in ("W_q", "W_k", "W_v"))  # (b, n, d_k) each
        heads.append(attention_head(q, k, v))  # (b, n, d_v)
    return np.concatenate(heads, axis=-1) @ p["W_o"]  # (b, n, h d_v) @ (h d_v, d_model)


# %% ffn
def feed_forward(x, p):
    """Each position alone: widen to d_ff, ReLU, narrow back. (b, n, d_model) -> (b, n, d_model)."""
    hidden = np.maximum(0, x @ p["W_1"] + p["b_1"])  # (b, n, d_ff)
    return hidden @ p["W_2"] + p["b_2"]  # (b, n, d_model)


# %% block
def layer_norm(x, p, eps=1e-5):
    """Each position to mean 0 and variance 1 over its d_model features, then gamma and beta."""
    mean, var = x.mean(axis=-1, keepdims=True), x.var(axis=-1, keepdims=True)  # (b, n, 1) each
    return p["gamma"] * (x - mean) / np.sqrt(var + eps) + p["beta"]  # (b, n, d_model)


def block(x, p, h):
    """One post-norm layer: LayerNorm(x + Sublayer(x)), around attention and then around the FFN."""
    x = layer_norm(x + multi_head(x, p["self_attn"], h), p["norm1"])  # (b, n, d_model)
    return layer_norm(x + feed_forward(x, p["ffn"]), p["norm2"])  # (b, n, d_model)


# %% model
def model(tokens, params, h):
    """Token ids (b, n) -> logits (b, n, vocab): row i scores the token after position i."""
    x = embed(tokens, params["embedding"])  # (b, n, d_model)
    for p in params["layers"]:  # N layers, each keeping the shape
        x = block(x, p, h)
    return x @ params["embedding"].T  # (b, n, d_model) @ (d_model, vocab): the same E, transposed


# %% run
logits = model(tokens, params, config.h)  # (1, 6, 12)
z = logits[0, -1]  # (vocab,): the scores for the token after the last one
e = np.exp(z - z.max())  # (vocab,): the largest is exp(0) = 1
p_next = e / e.sum()  # (vocab,): softmax, summing to 1
print("tokens", tokens.shape, "-> logits", logits.shape)
print("next-token probabilities:", p_next.round(3))

# %% check
# The same logits as the library's model, on the same weights.
assert np.abs(logits - attn.forward_decoder_only(params, tokens, config)).max() <= 1e-12, "differs from attn"

# At initialisation every bias is 0 and every gain 1: random ones make every parameter count.
rng = np.random.default_rng(1)
varied = {"embedding": params["embedding"], "layers": []}  # a copy: params stays as drawn
for layer in params["layers"]:
    varied["layers"].append({part: dict(ws) for part, ws in layer.items()})
    for ws in varied["layers"][-1].values():
        for name, w in ws.items():
            if w.ndim == 1:  # b_1 (d_ff,), b_2, gamma, beta (d_model,)
                ws[name] = w + rng.standard_normal(w.shape)
batch = rng.integers(1, config.vocab, size=(3, 7))  # (3, 7): three sequences, none holding token 0
ours = model(batch, varied, config.h)  # (3, 7, 12)
assert np.abs(ours - attn.forward_decoder_only(varied, batch, config)).max() <= 1e-12, "differs from attn"

# One head at a time is the library's batched split into heads.
x, p = embed(tokens, params["embedding"]), params["layers"][0]["self_attn"]  # (1, 6, 16), W^Q, W^K, W^V, W^O
library_heads = attn.multi_head_attention(x, x, p, config.h, mask=attn.causal_mask(6))  # (1, 6, 16)
assert np.abs(multi_head(x, p, config.h) - library_heads).max() <= 1e-12, "differs from attn"
