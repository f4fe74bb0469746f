"""attn.model: the encoder-decoder and the decoder-only model, against their equations written
out, finite differences and the paper's counts."""

import math

import numpy as np
import pytest

import attn
from attn.loss import cross_entropy
from attn.model import (
    Config,
    _decoder_only_forward_with_tape,
    _forward_with_tape,
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


def lm_by_hand(tokens, params, h):
    """The decoder-only model written out: scaled embeddings, positions, layers, tied output."""
    n, d_model = len(tokens), params["embedding"].shape[1]
    x = np.stack([params["embedding"][t] * math.sqrt(d_model) for t in tokens])
    x = x + attn.positional_encoding(n, d_model)
    for layer in params["layers"]:
        x = attn.encoder_layer(x, layer, h, attn.causal_mask(n))
    return x @ params["embedding"].T


# ------------------------------------ the decoder-only model, generating --


def test_logits_follow_the_equations(lm, lm_config):
    tokens = [3, 1, 4, 1, 5, 9, 2, 6]
    np.testing.assert_allclose(
        attn.forward_decoder_only(lm, np.array(tokens), lm_config), lm_by_hand(tokens, lm, 3), rtol=0, atol=1e-12
    )


def test_each_row_only_sees_its_prefix(lm, lm_config):
    tokens = np.array([3, 1, 4, 1, 5, 9])
    full = attn.forward_decoder_only(lm, tokens, lm_config)
    for i in range(len(tokens)):
        changed = tokens.copy()
        changed[i + 1 :] = 0  # the future is different; row i must not notice
        np.testing.assert_allclose(attn.forward_decoder_only(lm, changed, lm_config)[i], full[i], rtol=0, atol=1e-12)


@pytest.mark.parametrize("chunks", [[1] * 6, [6], [2, 1, 3], [4, 2]])
def test_steps_with_a_cache_equal_one_full_pass(lm, lm_config, chunks):
    tokens = np.array([3, 1, 4, 1, 5, 9])
    caches = attn.new_caches(lm, lm_config, capacity=6)
    pieces, start = [], 0
    for t in chunks:
        pieces.append(attn.decoder_only_step(lm, tokens[start : start + t], lm_config, caches))
        start += t
    np.testing.assert_allclose(
        np.concatenate(pieces), attn.forward_decoder_only(lm, tokens, lm_config), rtol=0, atol=1e-12
    )
    assert sum(c.nbytes for c in caches) == attn.kv_cache_bytes(3, 6, 12, 3)


def test_steps_without_positions_equal_one_full_pass(lm, lm_config):
    config = lm_config._replace(position=False)
    tokens = np.array([3, 1, 4, 1])
    caches = attn.new_caches(lm, config, capacity=4)
    stepped = np.concatenate([attn.decoder_only_step(lm, tokens[i : i + 1], config, caches) for i in range(4)])
    np.testing.assert_allclose(stepped, attn.forward_decoder_only(lm, tokens, config), rtol=0, atol=1e-12)


@pytest.mark.parametrize("tokens", [[0, 11], [-1], [[1, 2]], [1.0, 2.0]])
def test_tokens_must_be_valid_indices(lm, lm_config, tokens):
    with pytest.raises(ValueError):
        attn.decoder_only_step(lm, np.array(tokens), lm_config, attn.new_caches(lm, lm_config, capacity=4))


def test_the_cached_step_refuses_the_padding_token(lm, lm_config):
    config = lm_config._replace(pad=0)
    with pytest.raises(ValueError, match="masks no padding"):
        attn.decoder_only_step(lm, [3, 0], config, attn.new_caches(lm, config, capacity=4))


def test_caches_must_match_the_layers(lm, lm_config):
    caches = attn.new_caches(lm, lm_config, capacity=4)
    with pytest.raises(ValueError, match="need as many caches"):
        attn.decoder_only_step(lm, [1], lm_config, caches[:2])
    attn.decoder_only_step(lm, [1], lm_config, caches)
    caches[1] = attn.KVCache(3, 4, 4)  # one layer's cache empty, the others not
    with pytest.raises(ValueError, match="same number of positions"):
        attn.decoder_only_step(lm, [1], lm_config, caches)


def test_init_wants_a_generator(lm_config):
    with pytest.raises(TypeError, match="Generator"):
        attn.init_decoder_only(0, lm_config)


def test_init_is_reproducible():
    config = attn.Config(vocab=5, d_model=4, h=2, d_ff=8, N=2)
    a = attn.init_decoder_only(np.random.default_rng(3), config)
    b = attn.init_decoder_only(np.random.default_rng(3), config)
    np.testing.assert_array_equal(a["embedding"], b["embedding"])
    assert math.isclose(float(a["layers"][1]["ffn"]["W_2"].sum()), float(b["layers"][1]["ffn"]["W_2"].sum()))


def structure(tree):
    """The nested keys, list lengths and array shapes of a parameter tree."""
    if isinstance(tree, dict):
        return {key: structure(value) for key, value in tree.items()}
    if isinstance(tree, list):
        return [structure(value) for value in tree]
    return np.shape(tree)


# ----------------------------------------------------------- whole model --


def test_the_training_loss_without_dropout_is_the_loss_of_forward(rng, small_config, batch):
    params = init_transformer(rng, small_config)
    source, target = batch(rng)
    logits = forward(params, source, target[:, :-1], small_config)
    assert logits.shape == (3, 4, small_config.vocab)
    loss, _ = loss_and_gradients(params, source, target, small_config._replace(p_drop=0.0))
    assert loss == pytest.approx(cross_entropy(logits, target[:, 1:], small_config.eps_ls, small_config.pad), rel=1e-12)
    assert loss_and_gradients(params, source, target, small_config)[0] == loss  # rng=None: no dropout either


def test_decoder_only_loss_without_dropout_is_the_loss_of_its_forward(rng, small_config, batch):
    params = init_decoder_only(rng, small_config)
    tokens = batch(rng)[1]
    logits = forward_decoder_only(params, tokens[:, :-1], small_config)
    loss, _ = decoder_only_loss_and_gradients(params, tokens, small_config)
    assert loss == pytest.approx(cross_entropy(logits, tokens[:, 1:], small_config.eps_ls, small_config.pad), rel=1e-12)


@pytest.mark.parametrize("variant", ["encoder-decoder", "decoder-only"])
def test_gradients_have_the_structure_of_the_parameters(rng, variant, small_config, batch):
    if variant == "encoder-decoder":
        params = init_transformer(rng, small_config)
        _, grads = loss_and_gradients(params, *batch(rng), small_config, np.random.default_rng(1))
    else:
        params = init_decoder_only(rng, small_config)
        _, grads = decoder_only_loss_and_gradients(params, batch(rng)[1], small_config, np.random.default_rng(1))
    assert structure(grads) == structure(params)


def test_a_step_is_deterministic_given_the_generator_and_does_not_write_the_parameters(rng, small_config, batch):
    params = init_transformer(rng, small_config)
    source, target = batch(rng)
    for leaf in _arrays(params):
        leaf.flags.writeable = False
    first = loss_and_gradients(params, source, target, small_config, np.random.default_rng(7))
    second = loss_and_gradients(params, source, target, small_config, np.random.default_rng(7))
    other = loss_and_gradients(params, source, target, small_config, np.random.default_rng(8))
    assert first[0] == second[0]
    assert all(np.array_equal(a, b) for a, b in zip(_arrays(first[1]), _arrays(second[1]), strict=True))
    assert other[0] != first[0]  # another draw of dropout masks


def _arrays(tree):
    if isinstance(tree, dict):
        return [a for value in tree.values() for a in _arrays(value)]
    if isinstance(tree, list):
        return [a for value in tree for a in _arrays(value)]
    return [tree]


def test_the_decoder_never_reads_ahead(rng, small_config, batch):
    """Logits at position i depend on target_in[: i + 1] only."""
    params = init_transformer(rng, small_config)
    source, target = batch(rng)
    target_in = target[:, :-1].copy()
    before = forward(params, source, target_in, small_config)
    target_in[:, 2] = (target_in[:, 2] + 1) % small_config.vocab
    after = forward(params, source, target_in, small_config)
    np.testing.assert_array_equal(before[:, :2], after[:, :2])
    assert not np.allclose(before[:, 2:], after[:, 2:])

    decoder_only = init_decoder_only(rng, small_config)
    tokens = target_in.copy()
    before = forward_decoder_only(decoder_only, tokens, small_config)
    tokens[:, 3] = (tokens[:, 3] + 1) % small_config.vocab
    np.testing.assert_array_equal(forward_decoder_only(decoder_only, tokens, small_config)[:, :3], before[:, :3])


def test_source_padding_changes_nothing(rng, small_config, batch):
    params = init_transformer(rng, small_config)
    source, target = batch(rng)
    padded = np.concatenate([source, np.zeros((3, 3), dtype=int)], axis=1)
    np.testing.assert_allclose(
        forward(params, padded, target[:, :-1], small_config),
        forward(params, source, target[:, :-1], small_config),
        atol=1e-12,
    )


@pytest.mark.parametrize("position", [False, True])
def test_without_positions_the_decoder_cannot_see_the_source_order(rng, position, small_config, batch):
    """Encoder self-attention is permutation-equivariant and cross-attention sums over the source:
    without positional encodings, any shuffle of the source gives the same logits."""
    config = small_config._replace(position=position)
    params = init_transformer(rng, config)
    source, target = rng.integers(2, config.vocab, (3, 6)), batch(rng)[1]
    shuffled = source[:, [3, 0, 5, 1, 4, 2]]
    same = np.allclose(
        forward(params, shuffled, target[:, :-1], config), forward(params, source, target[:, :-1], config), atol=1e-12
    )
    assert same is not position


def test_attention_weights(rng, small_config, batch):
    params = init_transformer(rng, small_config)
    source, target = batch(rng)
    weights = attention_weights(params, source, target[:, :-1], small_config)
    assert [w.shape for w in weights["encoder"]] == [(3, 2, 5, 5)] * 2
    assert [w.shape for w in weights["decoder"]] == [(3, 2, 4, 4)] * 2
    assert [w.shape for w in weights["cross"]] == [(3, 2, 4, 5)] * 2
    for w in weights["cross"]:
        np.testing.assert_allclose(w.sum(axis=-1), 1.0)
        assert np.all(w[0, :, :, -2:] == 0.0)  # padded source keys
    for w in weights["decoder"]:
        assert np.all(np.triu(w, k=1) == 0.0)  # the causal mask


# ------------------------------------------------------------ parameters --


@pytest.mark.parametrize(
    "config",
    [
        Config(vocab=9, d_model=8, h=2, d_ff=16, N=2),
        Config(vocab=3, d_model=4, h=4, d_ff=5, N=1),
        Config(vocab=7, d_model=6, h=3, d_ff=2, N=3),
    ],
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


def test_a_seed_is_not_a_generator(small_config, batch):
    with pytest.raises(TypeError):
        init_transformer(0, small_config)
    with pytest.raises(TypeError):
        loss_and_gradients(
            init_transformer(np.random.default_rng(0), small_config), *batch(np.random.default_rng(0)), small_config, 0
        )


TOLERANCE = 1e-6  # relative error, float64


def _leaves(tree):
    """Every array of a nested dict / list, in order."""
    if isinstance(tree, dict):
        return [leaf for value in tree.values() for leaf in _leaves(value)]
    if isinstance(tree, list):
        return [leaf for value in tree for leaf in _leaves(value)]
    return [tree]


TINY = Config(vocab=6, d_model=4, h=2, d_ff=6, N=2, p_drop=0.1, eps_ls=0.1, pad=0)


# ----------------------------------------------------------- whole model --


@pytest.mark.parametrize("variant", ["encoder-decoder", "decoder-only"])
def test_whole_model_gradients_match_central_differences(variant, rng, central_differences, relative_error):
    """Every parameter of a two-layer model, with dropout, padding and label smoothing on."""
    if variant == "encoder-decoder":
        params = init_transformer(rng, TINY)
        source = np.array([[3, 4, 5, 0], [2, 5, 0, 0]])
        target = np.array([[1, 5, 4, 3, 0], [1, 2, 5, 0, 0]])
        _, grads = loss_and_gradients(params, source, target, TINY, np.random.default_rng(5))

        def loss():  # the forward pass alone, with the same dropout masks
            logits, _ = _forward_with_tape(params, source, target[:, :-1], TINY, np.random.default_rng(5))
            return cross_entropy(logits, target[:, 1:], TINY.eps_ls, TINY.pad)
    else:
        params = init_decoder_only(rng, TINY)
        tokens = np.array([[1, 5, 4, 3, 0], [1, 2, 5, 0, 0]])
        _, grads = decoder_only_loss_and_gradients(params, tokens, TINY, np.random.default_rng(5))

        def loss():
            logits, _ = _decoder_only_forward_with_tape(params, tokens[:, :-1], TINY, np.random.default_rng(5))
            return cross_entropy(logits, tokens[:, 1:], TINY.eps_ls, TINY.pad)

    leaves, grad_leaves = list(_leaves(params)), list(_leaves(grads))
    assert len(leaves) == len(grad_leaves)
    for value, grad in zip(leaves, grad_leaves, strict=True):
        assert relative_error(grad, central_differences(loss, value)) <= TOLERANCE


# ------------------------------------ decoder-only attention weights --


def test_decoder_only_attention_weights_are_causal_rows(lm, lm_config):
    weights = attn.decoder_only_attention_weights(lm, np.array([[1, 4, 2, 9, 3]]), lm_config)
    assert len(weights) == lm_config.N
    for w in weights:
        assert w.shape == (1, lm_config.h, 5, 5)
        np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)
        assert np.all(np.triu(w[0], k=1) == 0)


def test_first_layer_weights_are_one_head_by_hand(lm, lm_config):
    tokens = np.array([1, 4, 2, 9])
    x = attn.embed(tokens, lm["embedding"], lm_config.position)  # (n, d_model)
    p = lm["layers"][0]["self_attn"]
    d_k = lm_config.d_model // lm_config.h
    q, k = (x @ p["W_q"]).reshape(4, lm_config.h, d_k), (x @ p["W_k"]).reshape(4, lm_config.h, d_k)
    for head in range(lm_config.h):
        scores = q[:, head] @ k[:, head].T / np.sqrt(d_k)
        scores[np.triu_indices(4, k=1)] = -np.inf
        expected = np.exp(scores - scores.max(axis=1, keepdims=True))
        expected /= expected.sum(axis=1, keepdims=True)
        got = attn.decoder_only_attention_weights(lm, tokens, lm_config)[0][head]
        np.testing.assert_allclose(got, expected, rtol=1e-10)


# ----------------------------------------------------------------- float32 --

# Relative error per array (Euclidean norms), float32 against float64 on the same float32 weights.
# float32's eps is 1.2e-7. Over 200 seeds of small_config, both variants: the logits are at worst
# 4.9 eps off and the loss 2.0 eps; the worst gradient array 54 eps, since a gradient sums products
# over every position and those terms partly cancel (LayerNorm's, softmax's). 1e-5 is about 84 eps.
FLOAT32_TOLERANCE = 1e-5  # logits, loss and attention weights
FLOAT32_GRADIENT_TOLERANCE = 1e-4  # about 840 eps


def _as(tree, dtype):
    """A parameter tree with every array cast to dtype."""
    if isinstance(tree, dict):
        return {key: _as(value, dtype) for key, value in tree.items()}
    if isinstance(tree, list):
        return [_as(value, dtype) for value in tree]
    return tree.astype(dtype)


@pytest.mark.parametrize("init", [init_transformer, init_decoder_only])
def test_float32_weights_are_the_float64_draws_rounded(init, small_config):
    p64 = init(np.random.default_rng(4), small_config)
    p32 = init(np.random.default_rng(4), small_config, dtype=np.float32)
    assert structure(p32) == structure(p64)
    for a, b in zip(_leaves(p32), _leaves(p64), strict=True):
        assert a.dtype == np.float32
        np.testing.assert_array_equal(a, b.astype(np.float32))


@pytest.mark.parametrize("init", [init_transformer, init_decoder_only])
@pytest.mark.parametrize("dtype", [np.int32, bool, np.complex64, "no such dtype"])
def test_init_refuses_a_dtype_that_is_not_a_floating_one(init, dtype, small_config):
    with pytest.raises(TypeError, match="dtype"):
        init(np.random.default_rng(0), small_config, dtype)


@pytest.mark.parametrize("variant", ["encoder-decoder", "decoder-only"])
def test_a_float32_step_stays_float32_and_agrees_with_float64(variant, small_config, batch, relative_error):
    """Nothing promotes: the loss's gradient, every layer's backward and Adam's update keep float32.
    Against the same weights in float64, the loss agrees to FLOAT32_TOLERANCE and each gradient
    array to FLOAT32_GRADIENT_TOLERANCE."""
    rng = np.random.default_rng(6)
    source, target = batch(rng)
    init = init_transformer if variant == "encoder-decoder" else init_decoder_only
    p32 = init(np.random.default_rng(3), small_config, dtype=np.float32)
    p64 = _as(p32, np.float64)  # the same values, wider

    def step(params):
        if variant == "encoder-decoder":
            return loss_and_gradients(params, source, target, small_config, np.random.default_rng(8))
        return decoder_only_loss_and_gradients(params, target, small_config, np.random.default_rng(8))

    (loss32, grads32), (loss64, grads64) = step(p32), step(p64)
    assert loss32 == pytest.approx(loss64, rel=FLOAT32_TOLERANCE)
    for g32, g64 in zip(_leaves(grads32), _leaves(grads64), strict=True):
        assert g32.dtype == np.float32 and g64.dtype == np.float64
        assert relative_error(g32, g64) <= FLOAT32_GRADIENT_TOLERANCE
    start = attn.init_adam(p32)
    new, state = attn.adam_step(p32, grads32, start, 1e-3)
    moments = _leaves(start["m"]) + _leaves(start["v"]) + _leaves(state["m"]) + _leaves(state["v"])
    assert all(leaf.dtype == np.float32 for leaf in _leaves(new) + moments)


def _tape_arrays(tree):
    """Every array a training forward pass keeps for its backward (dicts and lists; None skipped)."""
    if isinstance(tree, dict):
        return [a for value in tree.values() for a in _tape_arrays(value)]
    if isinstance(tree, list):
        return [a for value in tree for a in _tape_arrays(value)]
    return [] if tree is None else [tree]


@pytest.mark.parametrize("variant", ["encoder-decoder", "decoder-only"])
def test_a_float32_forward_stays_float32_and_agrees_with_float64(variant, small_config, batch, relative_error):
    """The logits, every activation the training pass keeps (with dropout on) and every attention
    weight are float32 (masks bool); logits and weights are the float64 ones to FLOAT32_TOLERANCE."""
    source, target = batch(np.random.default_rng(5))
    init = init_transformer if variant == "encoder-decoder" else init_decoder_only
    p32 = init(np.random.default_rng(3), small_config, dtype=np.float32)
    p64 = _as(p32, np.float64)
    if variant == "encoder-decoder":
        logits32, logits64 = (forward(p, source, target[:, :-1], small_config) for p in (p32, p64))
        _, tape = _forward_with_tape(p32, source, target[:, :-1], small_config, np.random.default_rng(8))
        w32, w64 = (_leaves(attention_weights(p, source, target[:, :-1], small_config)) for p in (p32, p64))
    else:
        logits32, logits64 = (forward_decoder_only(p, target, small_config) for p in (p32, p64))
        _, tape = _decoder_only_forward_with_tape(p32, target, small_config, np.random.default_rng(8))
        w32, w64 = (attn.decoder_only_attention_weights(p, target, small_config) for p in (p32, p64))
    assert logits32.dtype == np.float32 and logits64.dtype == np.float64
    assert relative_error(logits32, logits64) <= FLOAT32_TOLERANCE
    assert {a.dtype for a in _tape_arrays(tape)} == {np.dtype(np.float32), np.dtype(bool)}
    for a, b in zip(w32, w64, strict=True):
        assert a.dtype == np.float32 and relative_error(a, b) <= FLOAT32_TOLERANCE


def test_float32_inference_and_the_cached_step(lm_config, relative_error):
    """forward_decoder_only and decoder_only_step keep float32 (the caches too), agree with each
    other and with float64 on the same weights to FLOAT32_TOLERANCE."""
    p32 = init_decoder_only(np.random.default_rng(2), lm_config, dtype=np.float32)
    tokens = np.array([3, 1, 4, 1, 5, 9, 2])
    full32, full64 = (
        forward_decoder_only(p32, tokens, lm_config),
        forward_decoder_only(_as(p32, np.float64), tokens, lm_config),
    )
    assert full32.dtype == np.float32
    assert relative_error(full32, full64) <= FLOAT32_TOLERANCE
    caches = attn.new_caches(p32, lm_config, capacity=len(tokens))
    assert all(cache.k.dtype == np.float32 and cache.v.dtype == np.float32 for cache in caches)
    stepped = np.concatenate(
        [attn.decoder_only_step(p32, tokens[:3], lm_config, caches)]
        + [attn.decoder_only_step(p32, [t], lm_config, caches) for t in tokens[3:]]
    )
    assert stepped.dtype == np.float32
    assert relative_error(stepped, full64) <= FLOAT32_TOLERANCE
    weights = attn.decoder_only_attention_weights(p32, tokens, lm_config)
    assert all(w.dtype == np.float32 for w in weights)
