"""Greedy generation: at every step, append the most likely next token.

One loop serves both models. The encoder-decoder (:func:`greedy_decode`) runs
its encoder once and its decoder again over the whole prefix at every step.
The decoder-only model (:func:`greedy_generate`) either does the same over the
whole sequence, or keeps every layer's keys and values in a cache and pushes
only the new token through (:func:`attn.decoder_only_step`).

Taught on: docs/11-generating-text.md
"""

import numpy as np

from ._validate import check_int
from .model import decode, decoder_only_step, encode, forward_decoder_only, new_caches


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
    start = np.full(source.shape[:-1] + (1,), bos, dtype=np.int64)  # (..., 1)

    def next_logits(target, new):
        return decode(params, target, memory, source, config)[..., -1, :]  # (..., vocab)

    target, _ = _greedy(next_logits, start, steps)
    return target[..., 1:]


def greedy_generate(params, prompt, config, steps, use_cache=True):
    """Continue a prompt with the decoder-only model, one argmax at a time.

    prompt: int (..., n_0), at least one token; use_cache=True runs the prompt
    once through :func:`attn.decoder_only_step` and then one new token per step
    (one sequence: prompt (n_0,)); use_cache=False runs
    :func:`attn.forward_decoder_only` over the whole sequence at every step
    -> (tokens int (..., n_0 + steps), logits (..., steps, vocab): the logits
    each new token was chosen from).

    >>> from attn import Config, init_decoder_only
    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=2)
    >>> params = init_decoder_only(np.random.default_rng(0), config)
    >>> tokens, logits = greedy_generate(params, [1, 5], config, steps=3)
    >>> tokens.shape, logits.shape  # (n_0 + steps,), (steps, vocab)
    ((5,), (3, 10))

    Taught on: docs/11-generating-text.md
    """
    steps = check_int(steps, "steps", 0)
    prompt = np.asarray(prompt)
    if prompt.ndim == 0 or prompt.shape[-1] == 0:
        raise ValueError("the prompt needs at least one token")
    if use_cache:
        if prompt.ndim != 1:
            raise ValueError(f"the cached step generates one sequence: the prompt must be (n_0,), got {prompt.shape}")
        caches = new_caches(params, config, prompt.shape[0] + steps)

        def next_logits(tokens, new):
            return decoder_only_step(params, new, config, caches)[-1]  # (vocab,)

    else:

        def next_logits(tokens, new):
            return forward_decoder_only(params, tokens, config)[..., -1, :]  # (..., vocab)

    tokens, chosen = _greedy(next_logits, prompt, steps)
    vocab = params["embedding"].shape[0]
    if not chosen:
        return tokens, np.empty(prompt.shape[:-1] + (0, vocab))  # (..., 0, vocab)
    return tokens, np.stack(chosen, axis=-2)  # (..., steps, vocab)


def _greedy(next_logits, tokens, steps):
    """The greedy loop: ``steps`` times, append the argmax of next_logits(tokens, new).

    next_logits(tokens (..., t), new (..., t_new): the tokens appended since the
    last call, the whole prompt at first) -> (..., vocab)
    -> (tokens int (..., t_0 + steps), [steps arrays (..., vocab)])
    """
    tokens = np.asarray(tokens)
    new, chosen = tokens, []
    for _ in range(steps):
        last = next_logits(tokens, new)  # (..., vocab)
        chosen.append(last)
        new = last.argmax(axis=-1)[..., None]  # (..., 1)
        tokens = np.concatenate([tokens, new], axis=-1)  # (..., t + 1)
    return tokens, chosen
