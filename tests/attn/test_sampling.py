"""attn.sampling: temperature, top-k, top-p against loops, and seeded generation."""

import numpy as np
import pytest

import attn

PROBS = np.array([0.1, 0.5, 0.15, 0.25])


def loop_top_k(probs, k):
    kept = sorted(range(len(probs)), key=lambda i: (-probs[i], i))[:k]
    out = np.array([probs[i] if i in kept else 0.0 for i in range(len(probs))])
    return out / out.sum()


def loop_top_p(probs, p):
    kept, mass = [], 0.0
    for i in sorted(range(len(probs)), key=lambda i: (-probs[i], i)):
        if mass >= p:
            break
        kept.append(i)
        mass += probs[i]
    out = np.array([probs[i] if i in kept else 0.0 for i in range(len(probs))])
    return out / out.sum()


def test_temperature_by_hand():
    # p^(1/T) renormalised: at T = 0.5 the squares 0.01, 0.25, 0.0225, 0.0625 over their sum 0.345.
    np.testing.assert_allclose(attn.with_temperature(np.log(PROBS), 0.5), PROBS**2 / 0.345, rtol=1e-12)
    np.testing.assert_allclose(attn.with_temperature(np.log(PROBS), 1.0), PROBS, rtol=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_top_k_is_the_loop(k):
    np.testing.assert_allclose(attn.top_k(PROBS, k), loop_top_k(PROBS, k), rtol=1e-12)


@pytest.mark.parametrize("p", [0.01, 0.5, 0.5000001, 0.75, 0.8, 0.9, 1.0])
def test_top_p_is_the_loop(p):
    np.testing.assert_allclose(attn.top_p(PROBS, p), loop_top_p(PROBS, p), rtol=1e-12)


def test_rules_work_row_by_row(rng):
    probs = attn.softmax(rng.standard_normal((5, 9)))
    for row, kept_k, kept_p in zip(probs, attn.top_k(probs, 3), attn.top_p(probs, 0.6), strict=True):
        np.testing.assert_allclose(kept_k, loop_top_k(row, 3), rtol=1e-12)
        np.testing.assert_allclose(kept_p, loop_top_p(row, 0.6), rtol=1e-12)


def test_ties_keep_the_lower_id():
    np.testing.assert_array_equal(attn.top_k(np.array([0.25, 0.25, 0.25, 0.25]), 2), [0.5, 0.5, 0, 0])


def test_next_distribution_composes_the_rules():
    logits = np.log(PROBS)
    expected = attn.top_p(attn.top_k(attn.with_temperature(logits, 0.7), 3), 0.9)
    np.testing.assert_allclose(attn.next_distribution(logits, 0.7, k=3, p=0.9), expected, rtol=1e-12)


def test_top_k_of_one_is_greedy(lm, lm_config):
    sampled = attn.sample_generate(lm, [2, 7], lm_config, 6, np.random.default_rng(3), k=1)
    greedy, _ = attn.greedy_generate(lm, [2, 7], lm_config, steps=6)
    np.testing.assert_array_equal(sampled, greedy)


def test_a_window_as_long_as_the_sequence_is_the_cache(lm, lm_config):
    cached = attn.sample_generate(lm, [2, 7], lm_config, 5, np.random.default_rng(4), temperature=1.3)
    windowed = attn.sample_generate(lm, [2, 7], lm_config, 5, np.random.default_rng(4), temperature=1.3, context=7)
    np.testing.assert_array_equal(cached, windowed)


def test_a_short_window_reads_only_the_last_tokens(lm, lm_config):
    # With context 1 every draw depends on the last token alone: the same last token, the same row.
    one = attn.sample_generate(lm, [3, 9], lm_config, 1, np.random.default_rng(8), context=1)
    other = attn.sample_generate(lm, [5, 9], lm_config, 1, np.random.default_rng(8), context=1)
    assert one[-1] == other[-1]


def test_a_seed_fixes_the_sample(lm, lm_config):
    draw = [attn.sample_generate(lm, [2], lm_config, 12, np.random.default_rng(5), temperature=1.5) for _ in range(2)]
    np.testing.assert_array_equal(draw[0], draw[1])
    other = attn.sample_generate(lm, [2], lm_config, 12, np.random.default_rng(6), temperature=1.5)
    assert draw[0].shape == other.shape == (13,)


def test_draws_follow_the_distribution(rng):
    # 20,000 draws from the nucleus: no token outside it, frequencies within 4 standard errors.
    kept = attn.top_p(PROBS, 0.8)
    draws = rng.choice(4, size=20_000, p=kept)
    frequencies = np.bincount(draws, minlength=4) / draws.size
    assert frequencies[kept == 0].sum() == 0
    np.testing.assert_array_less(np.abs(frequencies - kept), 4 * np.sqrt(kept * (1 - kept) / draws.size) + 1e-12)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: attn.with_temperature(np.zeros(3), 0.0), ValueError, "positive"),
        (lambda: attn.top_k(PROBS, 0), ValueError, "k"),
        (lambda: attn.top_k(PROBS, 5), ValueError, "exceeds"),
        (lambda: attn.top_p(PROBS, 0.0), ValueError, r"\(0, 1\]"),
        (lambda: attn.top_p(PROBS, 1.5), ValueError, r"\(0, 1\]"),
    ],
)
def test_hostile_input_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_generation_refuses_a_bad_prompt_or_generator(lm, lm_config):
    with pytest.raises(ValueError, match="one sequence"):
        attn.sample_generate(lm, [], lm_config, 2, np.random.default_rng(0))
    with pytest.raises(TypeError, match="Generator"):
        attn.sample_generate(lm, [1], lm_config, 2, 0)
