"""The whole model: embeddings, loss, dropout, both variants, decoding and parameter counts.

Each is checked against an independent formulation: the library's inference layers, a loop,
a hand calculation, or a property that must hold exactly (causality, padding, permutation).
"""

import math

import numpy as np
import pytest

from attn.core import causal_mask
from attn.embedding import embed, output_logits
from attn.greedy import greedy_decode, greedy_generate
from attn.init import init_decoder_layer, init_encoder_layer
from attn.layers import decoder_layer, encoder_layer
from attn.loss import cross_entropy, log_softmax, smoothed_targets
from attn.model import (
    Config,
    attention_weights,
    decoder_only_loss_and_gradients,
    forward,
    forward_decoder_only,
    init_decoder_only,
    init_transformer,
    loss_and_gradients,
    parameter_counts,
)
from attn.params import count_parameters
from attn.position import positional_encoding
from attn.training import decoder_layer_forward, dropout, encoder_layer_forward

SMALL = Config(vocab=9, d_model=8, h=2, d_ff=16, N=2, p_drop=0.1, eps_ls=0.1, pad=0)


def structure(tree):
    """The nested keys, list lengths and array shapes of a parameter tree."""
    if isinstance(tree, dict):
        return {key: structure(value) for key, value in tree.items()}
    if isinstance(tree, list):
        return [structure(value) for value in tree]
    return np.shape(tree)


def batch(rng, config=SMALL, size=3, m=5, n=4):
    """Source and target token ids (target starts with 1, the begin token), padded with 0 at the ends."""
    source = rng.integers(2, config.vocab, (size, m))
    target = np.concatenate([np.ones((size, 1), dtype=int), rng.integers(2, config.vocab, (size, n))], axis=1)
    source[0, -2:] = 0
    target[1, -1:] = 0
    return source, target


# --------------------------------------------------------------- embedding --


def test_embed_scales_by_sqrt_d_model_and_adds_positions(rng):
    E = rng.standard_normal((5, 6))
    tokens = np.array([[4, 0, 4]])
    x = embed(tokens, E)
    for i, token in enumerate(tokens[0]):
        np.testing.assert_allclose(x[0, i], E[token] * math.sqrt(6) + positional_encoding(3, 6)[i], atol=1e-15)
    np.testing.assert_allclose(embed(tokens, E, position=False)[0, 1], E[0] * math.sqrt(6), atol=1e-15)


@pytest.mark.parametrize(
    "tokens, error",
    [
        (np.array([[0, 5]]), ValueError),
        (np.array([[-1]]), ValueError),
        (np.array([[0.0]]), TypeError),
        (np.int64(2), TypeError),
    ],
)
def test_embed_rejects_bad_tokens(rng, tokens, error):
    with pytest.raises(error):
        embed(tokens, rng.standard_normal((5, 4)))


def test_output_logits_are_dot_products_with_the_embedding_rows(rng):
    y, E = rng.standard_normal((2, 3, 4)), rng.standard_normal((6, 4))
    logits = output_logits(y, E)
    assert logits.shape == (2, 3, 6)
    assert logits[1, 2, 5] == pytest.approx(sum(y[1, 2, i] * E[5, i] for i in range(4)))


# -------------------------------------------------------------------- loss --


def test_log_softmax_is_stable_and_normalised(rng):
    logits = np.array([[1e4, 0.0, -1e4], [3.0, 1.0, 0.2]])
    out = log_softmax(logits)
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out[0], [0.0, -1e4, -2e4])
    np.testing.assert_allclose(out[1], np.log(np.exp(logits[1]) / np.exp(logits[1]).sum()), atol=1e-15)
    np.testing.assert_allclose(log_softmax(logits[1] + 1234.5), out[1], atol=1e-12)  # shift invariance
    np.testing.assert_allclose(np.exp(log_softmax(rng.standard_normal((4, 7)) * 50)).sum(axis=-1), 1.0)


@pytest.mark.parametrize("eps_ls", [0.0, 0.1, 1.0])
def test_smoothed_targets(eps_ls):
    q = smoothed_targets(np.array([[2, 0]]), 4, eps_ls)
    np.testing.assert_allclose(q.sum(axis=-1), 1.0)
    np.testing.assert_allclose(q[0, 0], [eps_ls / 4] * 2 + [1 - eps_ls + eps_ls / 4] + [eps_ls / 4])


def test_smoothed_targets_rejects_a_bad_eps():
    with pytest.raises(ValueError):
        smoothed_targets(np.array([1]), 3, 1.5)


@pytest.mark.parametrize("eps_ls, pad", [(0.0, None), (0.1, None), (0.1, 0), (0.3, 2)])
def test_cross_entropy_by_a_loop(rng, eps_ls, pad):
    logits = rng.standard_normal((2, 4, 5)) * 3
    targets = rng.integers(0, 5, (2, 4))
    total, count = 0.0, 0
    for b in range(2):
        for i in range(4):
            if pad is not None and targets[b, i] == pad:
                continue
            p = np.exp(logits[b, i]) / np.exp(logits[b, i]).sum()
            q = [(1 - eps_ls) * (k == targets[b, i]) + eps_ls / 5 for k in range(5)]
            total -= sum(q[k] * math.log(p[k]) for k in range(5))
            count += 1
    assert cross_entropy(logits, targets, eps_ls, pad) == pytest.approx(total / max(count, 1), rel=1e-12)


def test_padding_positions_do_not_count(rng):
    logits = rng.standard_normal((2, 3, 4))
    targets = np.array([[1, 2, 0], [3, 0, 0]])
    changed = logits.copy()
    changed[targets == 0] = rng.standard_normal(4) * 100
    assert cross_entropy(changed, targets, 0.1, pad=0) == cross_entropy(logits, targets, 0.1, pad=0)
    assert cross_entropy(logits, np.zeros((2, 3), dtype=int), 0.1, pad=0) == 0.0  # nothing to predict


def test_smoothed_loss_is_lowest_at_the_smoothed_targets(rng):
    """Gibbs: -sum q log p >= -sum q log q, with equality only at p = q."""
    targets = np.array([[2, 0, 1]])
    q = smoothed_targets(targets, 4, 0.1)
    entropy = float(-(q * np.log(q)).sum(axis=-1).mean())
    assert cross_entropy(np.log(q), targets, 0.1) == pytest.approx(entropy, rel=1e-12)
    for _ in range(20):
        assert cross_entropy(np.log(q) + rng.standard_normal(q.shape) * 0.3, targets, 0.1) > entropy


def test_cross_entropy_rejects_mismatched_shapes(rng):
    with pytest.raises(ValueError):
        cross_entropy(rng.standard_normal((2, 3, 4)), np.zeros((2, 4), dtype=int))
    with pytest.raises(TypeError):
        cross_entropy(rng.standard_normal((2, 3, 4)), np.zeros((2, 3)))


# ----------------------------------------------------------------- dropout --


def test_dropout_keeps_the_expected_value():
    x = np.ones((200, 500))
    y, keep = dropout(x, 0.1, np.random.default_rng(3))
    assert keep.mean() == pytest.approx(0.9, abs=0.005)  # 100,000 draws: the standard error is 0.00095
    assert y.mean() == pytest.approx(1.0, abs=0.006)
    assert set(np.unique(y)) == {0.0, 1 / 0.9}


@pytest.mark.parametrize("p_drop, rng", [(0.0, np.random.default_rng(0)), (0.5, None)])
def test_dropout_off(p_drop, rng):
    x = np.arange(6.0)
    y, keep = dropout(x, p_drop, rng)
    assert y is x and keep is None


@pytest.mark.parametrize("p_drop", [1.0, -0.1])
def test_dropout_rejects_bad_rates(p_drop):
    with pytest.raises(ValueError):
        dropout(np.ones(3), p_drop, np.random.default_rng(0))


# ------------------------------------------------------------ whole model --


def test_training_layers_without_dropout_are_the_inference_layers(rng):
    x, memory = rng.standard_normal((2, 4, 8)), rng.standard_normal((2, 5, 8))
    enc, dec = init_encoder_layer(rng, 8, 16), init_decoder_layer(rng, 8, 16)
    mask = rng.random((2, 1, 4)) < 0.8
    np.testing.assert_allclose(encoder_layer_forward(x, enc, 2, mask)[0], encoder_layer(x, enc, 2, mask), atol=1e-12)
    np.testing.assert_allclose(
        decoder_layer_forward(x, memory, dec, 2, causal_mask(4))[0], decoder_layer(x, memory, dec, 2), atol=1e-12
    )


def test_the_training_loss_without_dropout_is_the_loss_of_forward(rng):
    params = init_transformer(rng, SMALL)
    source, target = batch(rng)
    logits = forward(params, source, target[:, :-1], SMALL)
    assert logits.shape == (3, 4, SMALL.vocab)
    loss, _ = loss_and_gradients(params, source, target, SMALL._replace(p_drop=0.0))
    assert loss == pytest.approx(cross_entropy(logits, target[:, 1:], SMALL.eps_ls, SMALL.pad), rel=1e-12)
    assert loss_and_gradients(params, source, target, SMALL)[0] == loss  # rng=None: no dropout either


def test_decoder_only_loss_without_dropout_is_the_loss_of_its_forward(rng):
    params = init_decoder_only(rng, SMALL)
    tokens = batch(rng)[1]
    logits = forward_decoder_only(params, tokens[:, :-1], SMALL)
    loss, _ = decoder_only_loss_and_gradients(params, tokens, SMALL)
    assert loss == pytest.approx(cross_entropy(logits, tokens[:, 1:], SMALL.eps_ls, SMALL.pad), rel=1e-12)


@pytest.mark.parametrize("variant", ["encoder-decoder", "decoder-only"])
def test_gradients_have_the_structure_of_the_parameters(rng, variant):
    if variant == "encoder-decoder":
        params = init_transformer(rng, SMALL)
        _, grads = loss_and_gradients(params, *batch(rng), SMALL, np.random.default_rng(1))
    else:
        params = init_decoder_only(rng, SMALL)
        _, grads = decoder_only_loss_and_gradients(params, batch(rng)[1], SMALL, np.random.default_rng(1))
    assert structure(grads) == structure(params)


def test_a_step_is_deterministic_given_the_generator_and_does_not_write_the_parameters(rng):
    params = init_transformer(rng, SMALL)
    source, target = batch(rng)
    for leaf in _arrays(params):
        leaf.flags.writeable = False
    first = loss_and_gradients(params, source, target, SMALL, np.random.default_rng(7))
    second = loss_and_gradients(params, source, target, SMALL, np.random.default_rng(7))
    other = loss_and_gradients(params, source, target, SMALL, np.random.default_rng(8))
    assert first[0] == second[0]
    assert all(np.array_equal(a, b) for a, b in zip(_arrays(first[1]), _arrays(second[1]), strict=True))
    assert other[0] != first[0]  # another draw of dropout masks


def _arrays(tree):
    if isinstance(tree, dict):
        return [a for value in tree.values() for a in _arrays(value)]
    if isinstance(tree, list):
        return [a for value in tree for a in _arrays(value)]
    return [tree]


def test_the_decoder_never_reads_ahead(rng):
    """Logits at position i depend on target_in[: i + 1] only."""
    params = init_transformer(rng, SMALL)
    source, target = batch(rng)
    target_in = target[:, :-1].copy()
    before = forward(params, source, target_in, SMALL)
    target_in[:, 2] = (target_in[:, 2] + 1) % SMALL.vocab
    after = forward(params, source, target_in, SMALL)
    np.testing.assert_array_equal(before[:, :2], after[:, :2])
    assert not np.allclose(before[:, 2:], after[:, 2:])

    decoder_only = init_decoder_only(rng, SMALL)
    tokens = target_in.copy()
    before = forward_decoder_only(decoder_only, tokens, SMALL)
    tokens[:, 3] = (tokens[:, 3] + 1) % SMALL.vocab
    np.testing.assert_array_equal(forward_decoder_only(decoder_only, tokens, SMALL)[:, :3], before[:, :3])


def test_source_padding_changes_nothing(rng):
    params = init_transformer(rng, SMALL)
    source, target = batch(rng)
    padded = np.concatenate([source, np.zeros((3, 3), dtype=int)], axis=1)
    np.testing.assert_allclose(
        forward(params, padded, target[:, :-1], SMALL), forward(params, source, target[:, :-1], SMALL), atol=1e-12
    )


@pytest.mark.parametrize("position", [False, True])
def test_without_positions_the_decoder_cannot_see_the_source_order(rng, position):
    """Encoder self-attention is permutation-equivariant and cross-attention sums over the source:
    without positional encodings, any shuffle of the source gives the same logits."""
    config = SMALL._replace(position=position)
    params = init_transformer(rng, config)
    source, target = rng.integers(2, config.vocab, (3, 6)), batch(rng)[1]
    shuffled = source[:, [3, 0, 5, 1, 4, 2]]
    same = np.allclose(
        forward(params, shuffled, target[:, :-1], config), forward(params, source, target[:, :-1], config), atol=1e-12
    )
    assert same is not position


def test_attention_weights(rng):
    params = init_transformer(rng, SMALL)
    source, target = batch(rng)
    weights = attention_weights(params, source, target[:, :-1], SMALL)
    assert [w.shape for w in weights["encoder"]] == [(3, 2, 5, 5)] * 2
    assert [w.shape for w in weights["decoder"]] == [(3, 2, 4, 4)] * 2
    assert [w.shape for w in weights["cross"]] == [(3, 2, 4, 5)] * 2
    for w in weights["cross"]:
        np.testing.assert_allclose(w.sum(axis=-1), 1.0)
        assert np.all(w[0, :, :, -2:] == 0.0)  # padded source keys
    for w in weights["decoder"]:
        assert np.all(np.triu(w, k=1) == 0.0)  # the causal mask


def test_greedy_decode_is_a_loop_of_argmaxes(rng):
    params = init_transformer(rng, SMALL)
    source = batch(rng)[0]
    produced = greedy_decode(params, source, SMALL, steps=4, bos=1)
    target = np.ones((3, 1), dtype=int)
    for _ in range(4):
        target = np.concatenate([target, forward(params, source, target, SMALL)[:, -1:].argmax(axis=-1)], axis=1)
    np.testing.assert_array_equal(produced, target[:, 1:])
    assert greedy_decode(params, source, SMALL, steps=0, bos=1).shape == (3, 0)


def test_greedy_generate_without_a_cache_is_a_loop_of_argmaxes(rng):
    params = init_decoder_only(rng, SMALL)
    prompt = np.array([[1, 4, 5]])
    tokens, _ = greedy_generate(params, prompt, SMALL, steps=3, use_cache=False)
    assert tokens.shape == (1, 6)
    np.testing.assert_array_equal(tokens[:, :3], prompt)
    for t in range(3, 6):
        assert tokens[0, t] == forward_decoder_only(params, tokens[:, :t], SMALL)[0, -1].argmax()


# ------------------------------------------------------------ parameters --


@pytest.mark.parametrize(
    "config", [SMALL, Config(vocab=3, d_model=4, h=4, d_ff=5, N=1), Config(vocab=7, d_model=6, h=3, d_ff=2, N=3)]
)
@pytest.mark.parametrize("decoder_only", [False, True])
def test_parameter_counts_match_real_arrays(rng, config, decoder_only):
    params = (init_decoder_only if decoder_only else init_transformer)(rng, config)
    counts = parameter_counts(config, decoder_only)
    assert counts["total"] == count_parameters(params)
    assert counts["embedding"] == count_parameters(params["embedding"])
    assert counts["total"] == sum(v for k, v in counts.items() if k != "total")


def test_parameter_counts_of_the_paper_base_configuration_by_hand():
    d, d_ff, N, vocab = 512, 2048, 6, 37000
    attention = 4 * d * d
    ffn = d * d_ff + d_ff + d_ff * d + d
    encoder_layer_count = attention + ffn + 2 * (2 * d)
    decoder_layer_count = 2 * attention + ffn + 3 * (2 * d)
    expected = vocab * d + N * (encoder_layer_count + decoder_layer_count)
    assert parameter_counts(Config(vocab=vocab))["total"] == expected == 63_045_632


def test_the_embedding_starts_with_unit_variance_after_scaling(rng):
    E = init_transformer(rng, Config(vocab=400, d_model=64, N=1, h=2, d_ff=8))["embedding"]
    assert (E * math.sqrt(64)).var() == pytest.approx(1.0, rel=0.02)  # 25,600 draws


# ------------------------------------------------------------ validation --


@pytest.mark.parametrize(
    "config, error",
    [
        (Config(vocab=5, d_model=6, h=4), ValueError),
        (Config(vocab=0, d_model=4, h=2), ValueError),
        (Config(vocab=5, d_model=4.0, h=2), TypeError),
        (Config(vocab=5, d_model=4, h=2, p_drop=1.0), ValueError),
        (Config(vocab=5, d_model=4, h=2, eps_ls=-0.1), ValueError),
        ({"vocab": 5}, TypeError),
    ],
)
def test_bad_configs_fail_loudly(rng, config, error):
    with pytest.raises(error):
        init_transformer(rng, config)


def test_a_seed_is_not_a_generator():
    with pytest.raises(TypeError):
        init_transformer(0, SMALL)
    with pytest.raises(TypeError):
        loss_and_gradients(
            init_transformer(np.random.default_rng(0), SMALL), *batch(np.random.default_rng(0)), SMALL, 0
        )
