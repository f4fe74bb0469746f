"""The whole Transformer: tokens in, logits out, and the gradients of the loss.

Encoder-decoder (Vaswani et al. 2017, 3.1, Figure 1), post-norm:

    memory = EncoderLayer^N(Dropout(E[source] sqrt(d_model) + PE))
    y      = DecoderLayer^N(Dropout(E[target_in] sqrt(d_model) + PE), memory)
    logits = y E^T

and a decoder-only variant, the one language model of attn: the encoder
layers run over one sequence with a causal mask, and there is no memory and
no cross-attention. It generates with or without a key-value cache
(:func:`decoder_only_step`, :mod:`attn.greedy`).

Parameters (nested dicts and lists of arrays, as :func:`attn.count_parameters`
counts them):

    encoder-decoder: {"embedding": E (vocab, d_model),
                      "encoder": [N encoder layers], "decoder": [N decoder layers]}
    decoder-only:    {"embedding": E (vocab, d_model), "layers": [N encoder layers]}

with each layer as in :mod:`attn.layers`. A training step's gradients have
exactly that structure.

Precision: the models compute in the dtype of their parameters, float64 by
default (``init_transformer(rng, config, dtype=np.float32)`` gives float32).
What is added to the activations is cast to their dtype first (the positional
encodings; the masks are boolean and select, they add nothing), and the
loss's gradient is built in the logits' dtype. So float32 parameters give
float32 activations, logits, attention weights, gradients and Adam moments;
only the loss itself is a Python float.

Taught on: docs/09-whole-model.md
"""

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_float_dtype, check_int, check_rng
from .core import causal_mask
from .embedding import embed, embed_backward, output_logits, output_logits_backward
from .init import init_decoder_layer, init_encoder_layer
from .kvcache import KVCache, cached_self_attention
from .layers import decoder_layer, encoder_layer, feed_forward, layer_norm
from .loss import cross_entropy, cross_entropy_backward
from .multihead import multi_head_attention
from .position import position_rows
from .training import (
    decoder_layer_backward,
    decoder_layer_forward,
    dropout,
    dropout_backward,
    encoder_layer_backward,
    encoder_layer_forward,
)


class Config(NamedTuple):
    """A model's sizes (the paper's names) and how it trains.

    vocab: tokens in the shared vocabulary, d_model, h, d_ff, N: as in the
    paper's Table 3, p_drop: residual dropout (5.4), eps_ls: label smoothing
    (5.4), pad: the padding token id (never attended to, never predicted), or
    None when no token is padding, position: add the sinusoidal encodings
    (3.5) or not.
    -> an immutable tuple; ``config._replace(position=False)`` makes a variant.

    >>> Config(vocab=12)
    Config(vocab=12, d_model=512, h=8, d_ff=2048, N=6, p_drop=0.1, eps_ls=0.1, pad=0, position=True)
    >>> Config(vocab=12)._replace(position=False).position
    False

    Taught on: docs/09-whole-model.md
    """

    vocab: int
    d_model: int = 512
    h: int = 8
    d_ff: int = 2048
    N: int = 6
    p_drop: float = 0.1
    eps_ls: float = 0.1
    pad: int | None = 0
    position: bool = True


def init_transformer(rng, config, dtype=np.float64):
    """Random parameters of the encoder-decoder: E first, then the encoder, then the decoder.

    E ~ N(0, 1 / d_model), so that a row times sqrt(d_model) has entries of
    variance 1, like the positional encodings it is added to; the layers
    come from :func:`attn.init_encoder_layer` and :func:`attn.init_decoder_layer`.
    dtype: the floating dtype of every array. The draws are the same for every
    dtype (made in float64, then rounded), so one seed gives one model.
    -> {"embedding": (vocab, d_model), "encoder": [N dicts], "decoder": [N dicts]}

    >>> params = init_transformer(np.random.default_rng(0), Config(vocab=10, d_model=8, h=2, d_ff=16, N=2))
    >>> params["embedding"].shape, len(params["encoder"]), sorted(params["decoder"][0])
    ((10, 8), 2, ['cross_attn', 'ffn', 'norm1', 'norm2', 'norm3', 'self_attn'])

    Taught on: docs/09-whole-model.md
    """
    config, rng, dtype = _check(config), _check_rng(rng), check_float_dtype(dtype)
    params = {
        "embedding": _init_embedding(rng, config),
        "encoder": [init_encoder_layer(rng, config.d_model, config.d_ff) for _ in range(config.N)],
        "decoder": [init_decoder_layer(rng, config.d_model, config.d_ff) for _ in range(config.N)],
    }
    return _as_dtype(params, dtype)


def init_decoder_only(rng, config, dtype=np.float64):
    """Random parameters of the decoder-only variant (N encoder-shaped layers, masked).

    dtype: as for :func:`init_transformer`; training and inference then run in it.
    -> {"embedding": (vocab, d_model), "layers": [N dicts]}

    >>> params = init_decoder_only(np.random.default_rng(0), Config(vocab=10, d_model=8, h=2, d_ff=16, N=2))
    >>> params["embedding"].shape, len(params["layers"]), sorted(params["layers"][0])
    ((10, 8), 2, ['ffn', 'norm1', 'norm2', 'self_attn'])

    Taught on: docs/09-whole-model.md
    """
    config, rng, dtype = _check(config), _check_rng(rng), check_float_dtype(dtype)
    params = {
        "embedding": _init_embedding(rng, config),
        "layers": [init_encoder_layer(rng, config.d_model, config.d_ff) for _ in range(config.N)],
    }
    return _as_dtype(params, dtype)


def encode(params, source, config):
    """The encoder stack, without dropout: source tokens -> memory.

    source: int (..., m) -> (..., m, d_model)

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> encode(init_transformer(np.random.default_rng(0), config), np.array([[3, 4, 5, 0]]), config).shape
    (1, 4, 8)

    Taught on: docs/09-whole-model.md
    """
    x = embed(source, params["embedding"], config.position)  # (..., m, d_model)
    for layer in params["encoder"]:
        x = encoder_layer(x, layer, config.h, _keys(source, config.pad))
    return x


def decode(params, target_in, memory, source, config):
    """The decoder stack and the output projection, without dropout.

    target_in: int (..., n) the target shifted right (it starts with the
    begin token), memory: (..., m, d_model), source: int (..., m) (for its
    padding) -> logits (..., n, vocab)

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> params, source = init_transformer(np.random.default_rng(0), config), np.array([[3, 4, 5, 0]])
    >>> decode(params, np.array([[1, 7]]), encode(params, source, config), source, config).shape
    (1, 2, 10)

    Taught on: docs/09-whole-model.md
    """
    y = embed(target_in, params["embedding"], config.position)  # (..., n, d_model)
    self_mask = causal_mask(np.shape(target_in)[-1]) & _keys(target_in, config.pad)  # (..., n, n)
    for layer in params["decoder"]:
        y = decoder_layer(y, memory, layer, config.h, self_mask, _keys(source, config.pad))
    return output_logits(y, params["embedding"])


def forward(params, source, target_in, config):
    """Logits of the encoder-decoder at inference (no dropout).

    source: int (..., m), target_in: int (..., n) -> logits (..., n, vocab) of the
    parameters' dtype; row i scores the token that follows target_in[..., :i + 1].

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> params = init_transformer(np.random.default_rng(0), config)
    >>> forward(params, np.array([[3, 4, 5, 0]]), np.array([[1, 7]]), config).shape  # (batch, n, vocab)
    (1, 2, 10)

    Taught on: docs/09-whole-model.md
    """
    return decode(params, target_in, encode(params, source, config), source, config)


def forward_decoder_only(params, tokens, config):
    """Logits of the decoder-only variant at inference: each position predicts the next token.

    tokens: int (..., n) -> logits (..., n, vocab) of the parameters' dtype

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> forward_decoder_only(init_decoder_only(np.random.default_rng(0), config), np.array([[1, 3, 4]]), config).shape
    (1, 3, 10)

    Taught on: docs/09-whole-model.md
    """
    x = embed(tokens, params["embedding"], config.position)  # (..., n, d_model)
    mask = causal_mask(np.shape(tokens)[-1]) & _keys(tokens, config.pad)  # (..., n, n)
    for layer in params["layers"]:
        x = encoder_layer(x, layer, config.h, mask)
    return output_logits(x, params["embedding"])


def new_caches(params, config, capacity):
    """One empty :class:`attn.KVCache` per layer of the decoder-only model, for up to ``capacity`` tokens.

    -> list of N KVCache, each with h heads of width d_model / h, of the dtype of
    params' embedding (float32 weights, float32 caches)

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=2)
    >>> params = init_decoder_only(np.random.default_rng(0), config)
    >>> [cache.k.shape for cache in new_caches(params, config, capacity=6)]  # (h, capacity, d_k) per layer
    [(2, 6, 4), (2, 6, 4)]

    Taught on: docs/11-generating-text.md
    """
    config = _check(config)
    dtype = params["embedding"].dtype
    return [KVCache(config.h, config.d_model // config.h, capacity, dtype=dtype) for _ in params["layers"]]


def decoder_only_step(params, tokens_new, config, caches):
    """The decoder-only logits at the next t positions, computing only those rows and caching their keys and values.

    tokens_new: int (t,), the tokens at positions L .. L + t - 1 where L =
    caches[0].length tokens were processed before; caches: one KVCache per
    layer (see :func:`new_caches`), each receiving t keys and values
    -> (t, vocab), equal to the last t rows of :func:`forward_decoder_only`
    over all L + t tokens. The cache masks no padding, so a token equal to
    config.pad is refused.

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=2)
    >>> params = init_decoder_only(np.random.default_rng(0), config)
    >>> caches = new_caches(params, config, capacity=4)
    >>> prompt = decoder_only_step(params, [1, 5, 2], config, caches)  # (3, vocab)
    >>> bool(np.allclose(prompt, forward_decoder_only(params, np.array([1, 5, 2]), config)))
    True
    >>> decoder_only_step(params, [7], config, caches).shape, caches[0].length
    ((1, 10), 4)

    Taught on: docs/11-generating-text.md
    """
    config, tokens = _check(config), _step_tokens(tokens_new, params, config)
    if len(caches) != len(params["layers"]):
        raise ValueError(f"{len(params['layers'])} layers need as many caches, got {len(caches)}")
    start, t = caches[0].length, tokens.shape[0]
    if any(cache.length != start for cache in caches):
        raise ValueError("every layer's cache must hold the same number of positions")
    x = embed(tokens, params["embedding"], position=False)  # (t, d_model)
    if config.position:
        x += position_rows(start, t, config.d_model, dtype=x.dtype)  # rows start .. start + t - 1 of PE
    for layer, cache in zip(params["layers"], caches, strict=True):  # lengths checked above
        # encoder_layer, on the new rows only: LayerNorm(x + Sublayer(x)) twice.
        x = layer_norm(x + cached_self_attention(x, layer["self_attn"], config.h, cache), **layer["norm1"])
        x = layer_norm(x + feed_forward(x, layer["ffn"]), **layer["norm2"])  # (t, d_model)
    return output_logits(x, params["embedding"])  # (t, vocab)


def loss_and_gradients(params, source, target, config, rng=None):
    """One training step's loss and the gradient of every parameter (encoder-decoder).

    source: int (..., m), target: int (..., n + 1) starting with the begin
    token: the decoder reads target[..., :-1] and is scored on target[..., 1:]
    (the paper's "offset by one position", 3.1), rng: a Generator for
    dropout, or None for none
    -> (loss: float, grads: the structure and the dtype of params; float32
    parameters are trained in float32 from the first activation to the last gradient)

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> params = init_transformer(np.random.default_rng(0), config)
    >>> loss, grads = loss_and_gradients(params, np.array([[3, 4, 5]]), np.array([[1, 5, 4, 3]]), config)
    >>> loss > 0, grads["embedding"].shape, len(grads["decoder"])
    (True, (10, 8), 1)

    Taught on: docs/10-training.md
    """
    config, rng = _check(config), _check_rng(rng, optional=True)
    target = np.asarray(target)
    target_in, target_out = target[..., :-1], target[..., 1:]
    logits, tape = _forward_with_tape(params, source, target_in, config, rng)
    loss = cross_entropy(logits, target_out, config.eps_ls, config.pad)

    d_y, dE = output_logits_backward(
        cross_entropy_backward(logits, target_out, config.eps_ls, config.pad), tape["y"], params["embedding"]
    )
    d_memory, decoder_grads = 0.0, [None] * len(tape["decoder"])
    for i in reversed(range(len(decoder_grads))):
        d_y, d_mem, decoder_grads[i] = decoder_layer_backward(
            d_y,
            tape["decoder"][i],
            params["decoder"][i],
            config.h,
            tape["self_mask"],
            tape["memory_mask"],
            config.p_drop,
        )
        d_memory = d_memory + d_mem  # every decoder layer reads the same memory
    dE = dE + embed_backward(dropout_backward(d_y, tape["keep_target"], config.p_drop), target_in, params["embedding"])
    dE_source, encoder_grads = _encoder_stack_backward(
        d_memory, tape["encoder"], params, "encoder", source, tape["memory_mask"], config
    )
    return loss, {"embedding": dE + dE_source, "encoder": encoder_grads, "decoder": decoder_grads}


def decoder_only_loss_and_gradients(params, tokens, config, rng=None):
    """One training step of the decoder-only variant: predict every next token.

    tokens: int (..., n + 1); the model reads tokens[..., :-1] and is scored on
    tokens[..., 1:] -> (loss: float, grads: the structure and the dtype of params)

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> params = init_decoder_only(np.random.default_rng(0), config)
    >>> loss, grads = decoder_only_loss_and_gradients(params, np.array([[1, 3, 4, 5]]), config)
    >>> loss > 0, grads["embedding"].shape, len(grads["layers"])
    (True, (10, 8), 1)

    Taught on: docs/09-whole-model.md
    """
    config, rng = _check(config), _check_rng(rng, optional=True)
    tokens = np.asarray(tokens)
    x_in, x_out = tokens[..., :-1], tokens[..., 1:]
    logits, tape = _decoder_only_forward_with_tape(params, x_in, config, rng)
    loss = cross_entropy(logits, x_out, config.eps_ls, config.pad)

    d_x, dE = output_logits_backward(
        cross_entropy_backward(logits, x_out, config.eps_ls, config.pad), tape["x"], params["embedding"]
    )
    dE_tokens, grads = _encoder_stack_backward(d_x, tape["stack"], params, "layers", x_in, tape["mask"], config)
    return loss, {"embedding": dE + dE_tokens, "layers": grads}


def attention_weights(params, source, target_in, config):
    """Every attention weight of the encoder-decoder at inference, layer by layer.

    source: int (..., m), target_in: int (..., n)
    -> {"encoder": [N arrays (..., h, m, m)], "decoder": [N arrays (..., h, n, n)],
        "cross": [N arrays (..., h, n, m)]}; in "cross", row i of head j is
        where target position i looked in the source.

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> params = init_transformer(np.random.default_rng(0), config)
    >>> weights = attention_weights(params, np.array([[3, 4, 5, 0]]), np.array([[1, 7]]), config)
    >>> weights["cross"][0].shape, weights["cross"][0][0, 0, 0, 3]  # (batch, h, n, m); the pad gets 0
    ((1, 2, 2, 4), np.float64(0.0))

    Taught on: docs/10-training.md
    """
    _, tape = _forward_with_tape(params, source, target_in, config, rng=None)
    h = config.h
    weights: dict[str, list[np.ndarray]] = {"encoder": [], "decoder": [], "cross": []}
    for layer, cache in zip(params["encoder"], tape["encoder"]["caches"], strict=True):
        x = cache["x"]
        weights["encoder"].append(multi_head_attention(x, x, layer["self_attn"], h, tape["memory_mask"], True)[1])
    for layer, cache in zip(params["decoder"], tape["decoder"], strict=True):
        y, y1 = cache["y"], cache["y1"]
        weights["decoder"].append(multi_head_attention(y, y, layer["self_attn"], h, tape["self_mask"], True)[1])
        weights["cross"].append(
            multi_head_attention(y1, cache["memory"], layer["cross_attn"], h, tape["memory_mask"], True)[1]
        )
    return weights


def decoder_only_attention_weights(params, tokens, config):
    """Every self-attention weight of the decoder-only model at inference, layer by layer.

    tokens: int (..., n) -> [N arrays (..., h, n, n)]; row i of head j is where position i
    looked, zero to the right of i (the causal mask).

    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=2, pad=None)
    >>> params = init_decoder_only(np.random.default_rng(0), config)
    >>> weights = decoder_only_attention_weights(params, np.array([3, 4, 5]), config)
    >>> len(weights), weights[0].shape, float(weights[1][0, 0, 2])  # layers, (h, n, n); position 0 sees only itself
    (2, (2, 3, 3), 0.0)

    Taught on: docs/13-real-language.md
    """
    config = _check(config)
    _, tape = _decoder_only_forward_with_tape(params, tokens, config, rng=None)
    return [
        multi_head_attention(cache["x"], cache["x"], layer["self_attn"], config.h, tape["mask"], True)[1]
        for layer, cache in zip(params["layers"], tape["stack"]["caches"], strict=True)
    ]


def parameter_counts(config, decoder_only=False):
    """How many parameters each part of the model has, from the sizes alone (no arrays).

    Per encoder layer: 4 d_model^2 (W_q, W_k, W_v, W_o) + 2 d_model d_ff +
    d_ff + d_model (the FFN) + 2 * 2 d_model (two LayerNorms); a decoder layer
    has a second attention and a third LayerNorm. One shared E: vocab d_model.
    -> {"embedding", "attention", "feed_forward", "layer_norm", "total"}: ints

    >>> parameter_counts(Config(vocab=37000))["total"]  # the paper's base sizes
    63045632

    Taught on: docs/09-whole-model.md
    """
    config = _check(config)
    vocab, d, d_ff, N = config.vocab, config.d_model, config.d_ff, config.N
    attentions, ffns, norms = (N, N, 2 * N) if decoder_only else (3 * N, 2 * N, 5 * N)
    counts = {
        "embedding": vocab * d,
        "attention": attentions * 4 * d * d,
        "feed_forward": ffns * (2 * d * d_ff + d_ff + d),
        "layer_norm": norms * 2 * d,
    }
    counts["total"] = sum(counts.values())
    return counts


# ---------------------------------------------------------------- helpers --


def _forward_with_tape(params, source, target_in, config, rng):
    """The training forward pass -> (logits (..., n, vocab), tape: what the backward pass reads)."""
    memory_mask = _keys(source, config.pad)  # (..., 1, m): real source tokens
    self_mask = causal_mask(np.shape(target_in)[-1]) & _keys(target_in, config.pad)  # (..., n, n)
    memory, encoder_tape = _encoder_stack(params, "encoder", source, memory_mask, config, rng)
    y, keep_target = dropout(embed(target_in, params["embedding"], config.position), config.p_drop, rng)
    decoder_caches = []
    for layer in params["decoder"]:
        y, cache = decoder_layer_forward(y, memory, layer, config.h, self_mask, memory_mask, config.p_drop, rng)
        decoder_caches.append(cache)
    tape = {
        "encoder": encoder_tape,
        "decoder": decoder_caches,
        "y": y,
        "keep_target": keep_target,
        "self_mask": self_mask,
        "memory_mask": memory_mask,
    }
    return output_logits(y, params["embedding"]), tape


def _decoder_only_forward_with_tape(params, tokens, config, rng):
    """The decoder-only training forward pass -> (logits (..., n, vocab), tape)."""
    mask = causal_mask(np.shape(tokens)[-1]) & _keys(tokens, config.pad)  # (..., n, n)
    x, stack_tape = _encoder_stack(params, "layers", tokens, mask, config, rng)
    return output_logits(x, params["embedding"]), {"stack": stack_tape, "x": x, "mask": mask}


def _encoder_stack(params, key, tokens, mask, config, rng):
    """Embed, drop out, and run the encoder-shaped layers params[key] -> (out (..., n, d_model), tape)."""
    x, keep = dropout(embed(tokens, params["embedding"], config.position), config.p_drop, rng)
    caches = []
    for layer in params[key]:
        x, cache = encoder_layer_forward(x, layer, config.h, mask, config.p_drop, rng)
        caches.append(cache)
    return x, {"caches": caches, "keep": keep}


def _encoder_stack_backward(d_out, tape, params, key, tokens, mask, config):
    """The gradients of :func:`_encoder_stack` -> (dE (vocab, d_model), [grads of each layer])."""
    grads = [None] * len(tape["caches"])
    for i in reversed(range(len(grads))):
        d_out, grads[i] = encoder_layer_backward(
            d_out, tape["caches"][i], params[key][i], config.h, mask, config.p_drop
        )
    return embed_backward(dropout_backward(d_out, tape["keep"], config.p_drop), tokens, params["embedding"]), grads


def _keys(tokens, pad):
    """tokens: int (..., n) -> bool (..., 1, n), True for the keys that are not padding (all, for pad None)."""
    tokens = np.asarray(tokens)
    if pad is None:
        return np.ones(tokens.shape, dtype=bool)[..., None, :]  # (..., 1, n)
    return (tokens != pad)[..., None, :]


def _step_tokens(tokens, params, config):
    """tokens as a 1-D int64 array of vocabulary ids that are not padding, else ValueError."""
    tokens = np.asarray(tokens)
    if tokens.ndim != 1 or (tokens.size and not np.issubdtype(tokens.dtype, np.integer)):
        raise ValueError(f"tokens must be a 1-D array of ints, got {tokens.dtype} of shape {tokens.shape}")
    vocab = params["embedding"].shape[0]
    if tokens.size and (tokens.min() < 0 or tokens.max() >= vocab):
        raise ValueError(f"every token must lie in [0, {vocab})")
    if config.pad is not None and np.any(tokens == config.pad):
        raise ValueError(f"the cached step masks no padding: token {config.pad} (config.pad) cannot be fed to it")
    return tokens.astype(np.int64)


def _as_dtype(tree, dtype):
    """Every array of a parameter tree (nested dicts and lists) as ``dtype``: a new tree."""
    if isinstance(tree, dict):
        return {key: _as_dtype(value, dtype) for key, value in tree.items()}
    if isinstance(tree, list):
        return [_as_dtype(item, dtype) for item in tree]
    return tree.astype(dtype)


def _init_embedding(rng, config):
    """E ~ N(0, 1 / d_model) -> (vocab, d_model)."""
    return rng.standard_normal((config.vocab, config.d_model)) / math.sqrt(config.d_model)


def _check(config):
    """config -> config, after checking its sizes and rates."""
    if not isinstance(config, Config):
        raise TypeError(f"config must be an attn.Config, got {type(config).__name__}")
    for name in ("vocab", "d_model", "h", "d_ff", "N"):
        check_int(getattr(config, name), name, 1)
    if config.d_model % config.h:
        raise ValueError(f"h = {config.h} does not divide d_model = {config.d_model}")
    if not 0.0 <= config.p_drop < 1.0 or not 0.0 <= config.eps_ls <= 1.0:
        raise ValueError(f"p_drop must lie in [0, 1) and eps_ls in [0, 1], got {config.p_drop!r}, {config.eps_ls!r}")
    return config


def _check_rng(rng, optional=False):
    """rng -> rng if it is a numpy Generator (or None, when ``optional``); else TypeError."""
    if not (optional and rng is None):
        check_rng(rng)
    return rng
