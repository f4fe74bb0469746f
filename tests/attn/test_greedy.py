"""attn.greedy: generation is a loop of argmaxes, with and without the key-value cache."""

import numpy as np
import pytest

import attn
from attn.greedy import greedy_decode, greedy_generate
from attn.model import (
    forward,
    forward_decoder_only,
    init_decoder_only,
    init_transformer,
)

# ------------------------------------ the decoder-only model, generating --


def test_generation_with_and_without_the_cache_agrees(lm, lm_config):
    with_cache, logits_cached = attn.greedy_generate(lm, [2, 7], lm_config, steps=6)
    without, logits_full = attn.greedy_generate(lm, [2, 7], lm_config, steps=6, use_cache=False)
    np.testing.assert_array_equal(with_cache, without)
    np.testing.assert_allclose(logits_cached, logits_full, rtol=0, atol=1e-12)
    assert with_cache.shape == (8,) and logits_cached.shape == (6, 11)
    np.testing.assert_array_equal(with_cache[2:], logits_cached.argmax(axis=1))


def test_zero_steps_returns_the_prompt(lm, lm_config):
    tokens, logits = attn.greedy_generate(lm, [5], lm_config, steps=0)
    np.testing.assert_array_equal(tokens, [5])
    assert logits.shape == (0, 11)


def test_generation_refuses_an_empty_prompt(lm, lm_config):
    with pytest.raises(ValueError, match="at least one token"):
        attn.greedy_generate(lm, [], lm_config, steps=2)


def test_cached_generation_refuses_a_batch(lm, lm_config):
    with pytest.raises(ValueError, match="one sequence"):
        attn.greedy_generate(lm, [[1, 2]], lm_config, steps=2)


# ----------------------------------------------------------- whole model --


def test_greedy_decode_is_a_loop_of_argmaxes(rng, small_config, batch):
    params = init_transformer(rng, small_config)
    source = batch(rng)[0]
    produced = greedy_decode(params, source, small_config, steps=4, bos=1)
    target = np.ones((3, 1), dtype=int)
    for _ in range(4):
        target = np.concatenate([target, forward(params, source, target, small_config)[:, -1:].argmax(axis=-1)], axis=1)
    np.testing.assert_array_equal(produced, target[:, 1:])
    assert greedy_decode(params, source, small_config, steps=0, bos=1).shape == (3, 0)


def test_greedy_generate_without_a_cache_is_a_loop_of_argmaxes(rng, small_config):
    params = init_decoder_only(rng, small_config)
    prompt = np.array([[1, 4, 5]])
    tokens, _ = greedy_generate(params, prompt, small_config, steps=3, use_cache=False)
    assert tokens.shape == (1, 6)
    np.testing.assert_array_equal(tokens[:, :3], prompt)
    for t in range(3, 6):
        assert tokens[0, t] == forward_decoder_only(params, tokens[:, :t], small_config)[0, -1].argmax()
