"""Sampling the next token: temperature, top-k and top-p (nucleus), and generation with them.

Greedy decoding (:mod:`attn.greedy`) takes the most likely token every time. Sampling draws it
from the model's distribution instead, reshaped by three rules:

    temperature T:  p = softmax(z / T); T < 1 sharpens it, T > 1 flattens it
    top-k:          keep the k most probable tokens, renormalise (Fan et al. 2018)
    top-p:          keep the fewest most probable tokens whose mass reaches p, renormalise
                    (Holtzman et al. 2020, "nucleus sampling")

Every draw comes from the numpy Generator passed in, so a seed fixes every sample.

Taught on: docs/13-real-language.md
"""

import numpy as np

from ._validate import check_int, check_rng
from .core import softmax
from .model import decoder_only_step, forward_decoder_only, new_caches


def with_temperature(logits, temperature):
    """The distribution softmax(logits / T).

    logits: (..., vocab), temperature: > 0 -> probabilities (..., vocab)

    >>> with_temperature(np.log([0.5, 0.25, 0.25]), 0.5).round(4)  # squares, renormalised
    array([0.6667, 0.1667, 0.1667])

    Taught on: docs/13-real-language.md
    """
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature!r}")
    return softmax(np.asarray(logits, dtype=float) / temperature)


def top_k(probs, k):
    """Keep the k most probable tokens and renormalise (equal probabilities: the lower id first).

    probs: (..., vocab), k: 1 .. vocab -> (..., vocab), zero outside the k kept

    >>> top_k(np.array([0.1, 0.5, 0.15, 0.25]), 2)
    array([0.        , 0.66666667, 0.        , 0.33333333])

    Taught on: docs/13-real-language.md
    """
    probs = np.asarray(probs, dtype=float)
    k = check_int(k, "k", 1)
    if k > probs.shape[-1]:
        raise ValueError(f"k = {k} exceeds the vocabulary of {probs.shape[-1]}")
    order = np.argsort(-probs, axis=-1, kind="stable")  # (..., vocab), most probable first
    rank = np.argsort(order, axis=-1, kind="stable")  # (..., vocab): each token's place in that order
    return _renormalise(np.where(rank < k, probs, 0.0))


def top_p(probs, p):
    """Keep the fewest most probable tokens whose total reaches p (the nucleus) and renormalise.

    probs: (..., vocab), p: in (0, 1] -> (..., vocab), zero outside the nucleus; the most
    probable token is always kept

    >>> top_p(np.array([0.1, 0.5, 0.15, 0.25]), 0.8)  # 0.5 + 0.25 falls short of 0.8
    array([0.        , 0.55555556, 0.16666667, 0.27777778])

    Taught on: docs/13-real-language.md
    """
    probs = np.asarray(probs, dtype=float)
    if not 0.0 < p <= 1.0:
        raise ValueError(f"p must lie in (0, 1], got {p!r}")
    order = np.argsort(-probs, axis=-1, kind="stable")  # (..., vocab)
    sorted_probs = np.take_along_axis(probs, order, axis=-1)
    before = np.cumsum(sorted_probs, axis=-1) - sorted_probs  # (..., vocab): mass ahead of each token
    keep_sorted = before < p  # a token is kept while the mass before it has not reached p
    keep = np.empty_like(keep_sorted)
    np.put_along_axis(keep, order, keep_sorted, axis=-1)
    return _renormalise(np.where(keep, probs, 0.0))


def next_distribution(logits, temperature=1.0, k=None, p=None):
    """The distribution a sampler draws from: temperature, then top-k, then top-p.

    logits: (..., vocab), k and p: None to skip that rule -> probabilities (..., vocab)

    >>> next_distribution(np.log([0.1, 0.5, 0.15, 0.25]), k=3, p=0.5).round(3)
    array([0., 1., 0., 0.])

    Taught on: docs/13-real-language.md
    """
    probs = with_temperature(logits, temperature)
    if k is not None:
        probs = top_k(probs, k)
    if p is not None:
        probs = top_p(probs, p)
    return probs


def sample_generate(params, prompt, config, steps, rng, temperature=1.0, k=None, p=None, context=None):
    """Continue a prompt with the decoder-only model, drawing each token.

    prompt: int (n_0,), steps: tokens to draw, rng: numpy Generator, temperature, k, p: as in
    :func:`next_distribution`, context: None to read the whole sequence (key-value cache), or
    the most tokens the model reads at each step (the last ``context``, as it was trained)
    -> int (n_0 + steps,)

    >>> from attn import Config, init_decoder_only
    >>> config = Config(vocab=10, d_model=8, h=2, d_ff=16, N=1, pad=None)
    >>> params = init_decoder_only(np.random.default_rng(0), config)
    >>> sample_generate(params, [1, 5], config, 4, np.random.default_rng(0), k=3).shape
    (6,)

    Taught on: docs/13-real-language.md
    """
    steps = check_int(steps, "steps", 0)
    check_rng(rng)
    tokens = np.asarray(prompt)
    if tokens.ndim != 1 or tokens.size == 0:
        raise ValueError(f"the prompt must be one sequence of at least one token, got shape {tokens.shape}")
    if context is None:
        caches = new_caches(params, config, tokens.size + steps)

        def next_logits(tokens, new):
            return decoder_only_step(params, new, config, caches)[-1]  # (vocab,)

    else:
        context = check_int(context, "context", 1)

        def next_logits(tokens, new):
            return forward_decoder_only(params, tokens[-context:], config)[-1]  # (vocab,)

    new = tokens
    for _ in range(steps):
        probs = next_distribution(next_logits(tokens, new), temperature, k, p)
        new = np.array([rng.choice(probs.size, p=probs)])  # (1,)
        tokens = np.concatenate([tokens, new])
    return tokens


def _renormalise(probs):
    """probs / their sum over the last axis -> (..., vocab)."""
    return probs / probs.sum(axis=-1, keepdims=True)
