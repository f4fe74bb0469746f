"""Greedy decoding: at every step, append the most likely next token.

The encoder runs once; the decoder runs again over the whole prefix at every
step (no cache of earlier keys and values), so step t costs a decoder pass
over t tokens.

Taught on: docs/10-training.md
"""

import numpy as np

from ._validate import check_int
from .model import decode, encode, forward_decoder_only


def greedy_decode(params, source, config, steps, bos):
    """Translate with the encoder-decoder, one argmax at a time.

    source: int (..., m), steps: how many tokens to produce, bos: the begin
    token the decoder starts from -> int (..., steps), the produced tokens
    (without bos)

    >>> from attn import Config, init_transformer
    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> params = init_transformer(np.random.default_rng(0), config)
    >>> greedy_decode(params, np.array([[3, 4, 5], [6, 7, 0]]), config, steps=4, bos=1).shape
    (2, 4)

    Taught on: docs/10-training.md
    """
    steps = check_int(steps, "steps", 0)
    source = np.asarray(source)
    memory = encode(params, source, config)  # (..., m, d_model), computed once
    target = np.full(source.shape[:-1] + (1,), bos, dtype=np.int64)  # (..., 1)
    for _ in range(steps):
        logits = decode(params, target, memory, source, config)  # (..., t, vocab)
        next_token = logits[..., -1, :].argmax(axis=-1)  # (...,)
        target = np.concatenate([target, next_token[..., None]], axis=-1)  # (..., t + 1)
    return target[..., 1:]


def greedy_continue(params, prompt, config, steps):
    """Continue a prompt with the decoder-only variant, one argmax at a time.

    prompt: int (..., n) -> int (..., n + steps), the prompt and what followed

    >>> from attn import Config, init_decoder_only
    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1)
    >>> greedy_continue(init_decoder_only(np.random.default_rng(0), config), np.array([[1, 3]]), config, 3).shape
    (1, 5)

    Taught on: docs/09-whole-model.md
    """
    steps = check_int(steps, "steps", 0)
    tokens = np.asarray(prompt)
    for _ in range(steps):
        next_token = forward_decoder_only(params, tokens, config)[..., -1, :].argmax(axis=-1)  # (...,)
        tokens = np.concatenate([tokens, next_token[..., None]], axis=-1)  # (..., t + 1)
    return tokens
