"""A small decoder-only language model, to show how a Transformer generates text.

    x_0    = E[tokens] + PE      token embeddings plus sinusoidal positions
    x_l    = layer_l(x_{l-1})    N post-norm layers: causal self-attention,
                                 then the feed-forward network
                                 (attn.encoder_layer with a causal mask)
    logits = x_N E^T             the output projection shares the embedding
                                 matrix (Vaswani et al. 2017, section 3.4)

Row i of the logits scores every vocabulary entry as the token at position
i + 1. Weights come from an explicit Generator and are not trained: the model
shows the mechanics of generation, not good predictions.

Parameters: {"embed": (vocab, d_model), "layers": [N dicts of
attn.init_encoder_layer]}.

Taught on: docs/11-generating-text.md
"""

import numpy as np

from ._validate import check_int, check_rng
from .core import causal_mask
from .init import init_encoder_layer
from .kvcache import KVCache, cached_self_attention
from .layers import encoder_layer, feed_forward, layer_norm
from .position import positional_encoding


def init_causal_lm(rng, vocab, d_model, d_ff, N):
    """Random parameters of the model: embeddings drawn N(0, 1), N layers from init_encoder_layer.

    -> {"embed": (vocab, d_model), "layers": list of N encoder-layer dicts}

    >>> params = init_causal_lm(np.random.default_rng(0), vocab=10, d_model=8, d_ff=16, N=2)
    >>> params["embed"].shape, len(params["layers"])
    ((10, 8), 2)

    Taught on: docs/11-generating-text.md
    """
    check_rng(rng)
    vocab, d_model = check_int(vocab, "vocab", 1), check_int(d_model, "d_model", 1)
    N = check_int(N, "N", 1)
    return {
        "embed": rng.standard_normal((vocab, d_model)),
        "layers": [init_encoder_layer(rng, d_model, d_ff) for _ in range(N)],
    }


def causal_lm_logits(tokens, params, h):
    """One causal pass over a whole sequence: the logits at every position at once.

    tokens: (n,) ints in [0, vocab), params: see the module docstring, h: heads
    -> (n, vocab); row i scores the token at position i + 1. This is the pass
    training uses (teacher forcing): the true tokens go in, shifted right.

    >>> params = init_causal_lm(np.random.default_rng(0), vocab=10, d_model=8, d_ff=16, N=2)
    >>> causal_lm_logits([1, 5, 2], params, h=2).shape  # (n, vocab)
    (3, 10)

    Taught on: docs/11-generating-text.md
    """
    tokens = _tokens(tokens, params)
    n = tokens.shape[0]
    x = params["embed"][tokens] + positional_encoding(n, params["embed"].shape[1])  # (n, d_model)
    mask = causal_mask(n)  # (n, n)
    for layer in params["layers"]:
        x = encoder_layer(x, layer, h, mask)  # (n, d_model)
    return x @ params["embed"].T  # (n, vocab)


def new_caches(params, h, capacity):
    """One empty :class:`attn.kvcache.KVCache` per layer, for sequences of up to ``capacity`` tokens.

    -> list of N KVCache, each with h heads of width d_model / h

    >>> params = init_causal_lm(np.random.default_rng(0), vocab=10, d_model=8, d_ff=16, N=2)
    >>> [cache.k.shape for cache in new_caches(params, h=2, capacity=6)]  # (h, capacity, d_k) per layer
    [(2, 6, 4), (2, 6, 4)]

    Taught on: docs/11-generating-text.md
    """
    d_model = params["embed"].shape[1]
    return [KVCache(h, d_model // h, capacity) for _ in params["layers"]]


def causal_lm_step(tokens_new, params, h, caches):
    """The logits at the next t positions, computing only those rows and caching their keys and values.

    tokens_new: (t,) ints, the tokens at positions L .. L + t - 1 where L =
    caches[0].length tokens were processed before; caches: one KVCache per
    layer (see :func:`new_caches`), each receiving t keys and values
    -> (t, vocab), equal to the last t rows of causal_lm_logits over all
    L + t tokens.

    >>> params = init_causal_lm(np.random.default_rng(0), vocab=10, d_model=8, d_ff=16, N=2)
    >>> caches = new_caches(params, h=2, capacity=4)
    >>> prompt = causal_lm_step([1, 5, 2], params, 2, caches)  # (3, vocab)
    >>> bool(np.allclose(prompt, causal_lm_logits([1, 5, 2], params, 2)))
    True
    >>> causal_lm_step([7], params, 2, caches).shape, caches[0].length
    ((1, 10), 4)

    Taught on: docs/11-generating-text.md
    """
    tokens = _tokens(tokens_new, params)
    if len(caches) != len(params["layers"]):
        raise ValueError(f"{len(params['layers'])} layers need as many caches, got {len(caches)}")
    start, t = caches[0].length, tokens.shape[0]
    if any(cache.length != start for cache in caches):
        raise ValueError("every layer's cache must hold the same number of positions")
    d_model = params["embed"].shape[1]
    x = params["embed"][tokens] + _position_rows(start, t, d_model)  # (t, d_model)
    for layer, cache in zip(params["layers"], caches, strict=True):  # lengths checked above
        # encoder_layer, one row at a time: LayerNorm(x + Sublayer(x)) twice.
        x = layer_norm(x + cached_self_attention(x, layer["self_attn"], h, cache), **layer["norm1"])
        x = layer_norm(x + feed_forward(x, layer["ffn"]), **layer["norm2"])  # (t, d_model)
    return x @ params["embed"].T  # (t, vocab)


def greedy_generate(prompt, params, h, steps, use_cache=True):
    """Extend a prompt by ``steps`` tokens, each time appending the most likely next token.

    prompt: (n_0,) ints, at least one; use_cache=True runs the prompt once
    through :func:`causal_lm_step` and then one new token per step;
    use_cache=False runs :func:`causal_lm_logits` over the whole sequence at
    every step -> (tokens (n_0 + steps,) int64, logits (steps, vocab): the
    logits each new token was chosen from).

    >>> params = init_causal_lm(np.random.default_rng(0), vocab=10, d_model=8, d_ff=16, N=2)
    >>> tokens, logits = greedy_generate([1, 5], params, h=2, steps=3)
    >>> tokens.shape, logits.shape  # (n_0 + steps,), (steps, vocab)
    ((5,), (3, 10))

    Taught on: docs/11-generating-text.md
    """
    tokens = list(_tokens(prompt, params))
    steps = check_int(steps, "steps", 0)
    if not tokens:
        raise ValueError("the prompt needs at least one token")
    caches = new_caches(params, h, len(tokens) + steps) if use_cache else None
    chosen = []
    new = tokens
    for _ in range(steps):
        if use_cache:
            last = causal_lm_step(new, params, h, caches)[-1]  # (vocab,)
        else:
            last = causal_lm_logits(tokens, params, h)[-1]  # (vocab,)
        chosen.append(last)
        new = [int(np.argmax(last))]
        tokens += new
    vocab = params["embed"].shape[0]
    return np.array(tokens, dtype=np.int64), np.array(chosen).reshape(steps, vocab)  # (steps, vocab)


def _position_rows(start, t, d_model, base=10000.0):
    """Rows start .. start + t - 1 of positional_encoding(start + t, d_model), without the others.

    -> (t, d_model). One step of generation needs one row; building the whole
    table again at every step would cost O(n d_model) per token.
    """
    pos = np.arange(start, start + t, dtype=np.float64)[:, None]  # (t, 1)
    angle = pos / base ** (np.arange(0, d_model, 2, dtype=np.float64) / d_model)  # (t, ceil(d_model / 2))
    rows = np.empty((t, d_model))
    rows[:, 0::2] = np.sin(angle)
    rows[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return rows


def _tokens(tokens, params):
    """tokens as a 1-D int64 array of valid vocabulary indices, else ValueError."""
    tokens = np.asarray(tokens)
    if tokens.ndim != 1 or (tokens.size and not np.issubdtype(tokens.dtype, np.integer)):
        raise ValueError(f"tokens must be a 1-D array of ints, got {tokens.dtype} of shape {tokens.shape}")
    vocab = params["embed"].shape[0]
    if tokens.size and (tokens.min() < 0 or tokens.max() >= vocab):
        raise ValueError(f"every token must lie in [0, {vocab})")
    return tokens.astype(np.int64)
