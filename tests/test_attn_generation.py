"""attn.kvcache, attn.grouped and the decoder-only model generating, against independent formulations.

The references here are written out directly: full causal multi-head attention, explicit copies
of each key/value head for its query heads, loops over layers and positions, hand-computed byte
and FLOP counts.
"""

import math

import numpy as np
import pytest

import attn
from attn.position import position_rows


def causal_mha(x, params, h):
    """Full causal multi-head attention over all of x: the reference a cache must reproduce."""
    return attn.multi_head_attention(x, x, params, h, attn.causal_mask(x.shape[0]))


def grouped_by_copying(x, memory, params, h, groups, mask=None):
    """Grouped-query attention with every key/value head copied out to its h / groups query heads."""
    d_k = params["W_q"].shape[1] // h
    out = []
    for head in range(h):
        group = head // (h // groups)
        q = x @ params["W_q"][:, head * d_k : (head + 1) * d_k]
        k = memory @ params["W_k"][:, group * d_k : (group + 1) * d_k]
        v = memory @ params["W_v"][:, group * d_k : (group + 1) * d_k]
        out.append(attn.scaled_dot_product_attention(q, k, v, mask))
    return np.concatenate(out, axis=-1) @ params["W_o"]


# ------------------------------------------------------------------ KVCache --


def test_cache_appends_in_order_and_returns_read_only_views(rng):
    cache = attn.KVCache(heads=2, d_k=3, capacity=5, d_v=4)
    k1, v1 = rng.standard_normal((2, 2, 3)), rng.standard_normal((2, 2, 4))
    k2, v2 = rng.standard_normal((2, 1, 3)), rng.standard_normal((2, 1, 4))
    cache.append(k1, v1)
    keys, values = cache.append(k2, v2)
    assert cache.length == 3 and keys.shape == (2, 3, 3) and values.shape == (2, 3, 4)
    np.testing.assert_array_equal(keys, np.concatenate([k1, k2], axis=1))
    np.testing.assert_array_equal(values, np.concatenate([v1, v2], axis=1))
    with pytest.raises(ValueError):
        keys[0, 0, 0] = 1.0  # a view of the cache cannot be written through
    k1[:] = 0.0  # the caller's array is the caller's: the cache holds a copy
    assert np.abs(cache.k[:, :2]).min() > 0


def test_cache_nbytes_counts_both_buffers():
    cache = attn.KVCache(heads=4, d_k=8, capacity=10, d_v=6, dtype=np.float32)
    assert cache.nbytes == 4 * 10 * (8 + 6) * 4
    assert (cache.heads, cache.capacity, cache.length) == (4, 10, 0)


@pytest.mark.parametrize(
    "k_shape, v_shape",
    [((2, 1, 3), (2, 1, 5)), ((3, 1, 3), (3, 1, 3)), ((2, 1, 4), (2, 1, 3)), ((2, 1, 3), (2, 2, 3))],
)
def test_cache_refuses_the_wrong_shapes(k_shape, v_shape):
    cache = attn.KVCache(heads=2, d_k=3, capacity=4)
    with pytest.raises(ValueError, match="expected k"):
        cache.append(np.zeros(k_shape), np.zeros(v_shape))
    assert cache.length == 0


def test_cache_refuses_to_overflow_and_keeps_what_it_had(rng):
    cache = attn.KVCache(heads=1, d_k=2, capacity=3)
    cache.append(np.ones((1, 2, 2)), np.ones((1, 2, 2)))
    with pytest.raises(ValueError, match="holds 3 positions"):
        cache.append(np.zeros((1, 2, 2)), np.zeros((1, 2, 2)))
    assert cache.length == 2 and np.all(cache.k[:, :2] == 1)


@pytest.mark.parametrize("arguments", [(0, 2, 3), (2, 0, 3), (2, 2, -1), (2.0, 2, 3), (True, 2, 3)])
def test_cache_refuses_bad_sizes(arguments):
    with pytest.raises((TypeError, ValueError)):
        attn.KVCache(*arguments)


# --------------------------------------------------------- cached attention --


@pytest.mark.parametrize("chunks", [[1] * 7, [7], [3, 1, 1, 2], [2, 5]])
@pytest.mark.parametrize("groups", [4, 2, 1])
def test_cached_attention_reproduces_the_full_causal_pass(rng, chunks, groups):
    n, d_model, h = sum(chunks), 16, 4
    x = rng.standard_normal((n, d_model))
    params = attn.mean_pool_kv_heads(attn.init_multi_head(rng, d_model), h, groups)
    cache = attn.KVCache(groups, d_model // h, n)
    pieces, start = [], 0
    for t in chunks:
        pieces.append(attn.cached_self_attention(x[start : start + t], params, h, cache))
        start += t
    expected = grouped_by_copying(x, x, params, h, groups, attn.causal_mask(n))
    np.testing.assert_allclose(np.concatenate(pieces), expected, rtol=0, atol=1e-12)
    if groups == h:
        np.testing.assert_allclose(np.concatenate(pieces), causal_mha(x, params, h), rtol=0, atol=1e-12)


def test_cached_attention_wants_a_matrix_of_new_rows(rng):
    params = attn.init_multi_head(rng, 8)
    with pytest.raises(ValueError, match="x_new must be"):
        attn.cached_self_attention(np.zeros(8), params, 2, attn.KVCache(2, 4, 3))


# ---------------------------------------------------------------- grouped --


@pytest.mark.parametrize("h, groups", [(4, 4), (4, 2), (4, 1), (6, 3), (6, 2)])
def test_grouped_query_attention_equals_copied_heads(rng, h, groups):
    n, d_model = 5, 12
    x, memory = rng.standard_normal((n, d_model)), rng.standard_normal((n + 2, d_model))
    params = attn.mean_pool_kv_heads(attn.init_multi_head(rng, d_model), h, groups)
    mask = rng.random((n, n + 2)) < 0.7
    mask[:, 0] = True
    got = attn.grouped_query_attention(x, memory, params, h, groups, mask)
    np.testing.assert_allclose(got, grouped_by_copying(x, memory, params, h, groups, mask), rtol=0, atol=1e-12)


def test_as_many_groups_as_heads_is_multi_head_attention(rng):
    x = rng.standard_normal((2, 6, 16))  # a batch of two
    params = attn.init_multi_head(rng, 16)
    mask = attn.causal_mask(6)
    np.testing.assert_allclose(
        attn.grouped_query_attention(x, x, params, 4, 4, mask),
        attn.multi_head_attention(x, x, params, 4, mask),
        rtol=0,
        atol=1e-12,
    )


def test_attend_in_groups_with_one_group_per_head_is_plain_attention(rng):
    q, k, v = rng.standard_normal((3, 4, 5)), rng.standard_normal((3, 6, 5)), rng.standard_normal((3, 6, 2))
    np.testing.assert_allclose(
        attn.attend_in_groups(q, k, v), attn.scaled_dot_product_attention(q, k, v), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize(
    "q_shape, k_shape, v_shape",
    [
        ((4, 3, 2), (3, 5, 2), (3, 5, 2)),
        ((4, 3, 2), (2, 5, 2), (1, 5, 2)),
        ((3, 2), (1, 3, 2), (1, 3, 2)),
        ((4, 3, 2), (0, 5, 2), (0, 5, 2)),
    ],
)
def test_attend_in_groups_refuses_heads_that_do_not_divide(q_shape, k_shape, v_shape):
    with pytest.raises(ValueError):
        attn.attend_in_groups(np.ones(q_shape), np.ones(k_shape), np.ones(v_shape))


def test_mean_pool_by_hand():
    # d_model = 2, h = 4 heads of width 1: column c of W_k is head c.
    w = np.array([[1.0, 3.0, 5.0, 7.0], [2.0, 4.0, 6.0, 8.0]])
    params = {"W_q": np.eye(2), "W_k": w, "W_v": 10 * w, "W_o": np.eye(2)}
    two = attn.mean_pool_kv_heads(params, h=4, groups=2)
    np.testing.assert_array_equal(two["W_k"], [[2.0, 6.0], [3.0, 7.0]])
    np.testing.assert_array_equal(two["W_v"], [[20.0, 60.0], [30.0, 70.0]])
    one = attn.mean_pool_kv_heads(params, h=4, groups=1)
    np.testing.assert_array_equal(one["W_k"], [[4.0], [5.0]])
    same = attn.mean_pool_kv_heads(params, h=4, groups=4)
    np.testing.assert_array_equal(same["W_k"], w)
    assert same["W_q"] is not params["W_q"]  # a new dict of new arrays


@pytest.mark.parametrize("h, groups", [(4, 3), (4, 8), (4, 0)])
def test_mean_pool_refuses_groups_that_do_not_divide_the_heads(rng, h, groups):
    with pytest.raises(ValueError):
        attn.mean_pool_kv_heads(attn.init_multi_head(rng, 8), h, groups)


def test_grouped_query_attention_checks_the_width_of_w_k(rng):
    params = attn.mean_pool_kv_heads(attn.init_multi_head(rng, 8), 4, 2)
    with pytest.raises(ValueError, match="W_k has 4 columns"):
        attn.grouped_query_attention(np.ones((3, 8)), np.ones((3, 8)), params, 4, 1)


# ------------------------------------------------------------ costs --


@pytest.mark.parametrize(
    "N, n, d_model, h, groups, itemsize, expected",
    [
        (96, 2048, 12288, 96, None, 2, 9_663_676_416),  # GPT-3 175B, 16-bit: 9.0 GiB
        (96, 2048, 12288, 96, 8, 2, 805_306_368),  # the same with 8 key/value heads
        (96, 2048, 12288, 96, 1, 2, 100_663_296),  # and with one
        (2, 10, 16, 4, None, 8, 5120),  # page 11's toy model
        (1, 12, 32, 8, 2, 8, 1536),
        (3, 0, 8, 2, None, 4, 0),
    ],
)
def test_kv_cache_bytes(N, n, d_model, h, groups, itemsize, expected):
    assert attn.kv_cache_bytes(N, n, d_model, h, groups, itemsize) == expected
    if groups is None:
        assert expected == 2 * N * n * d_model * itemsize


@pytest.mark.parametrize("arguments", [(1, 4, 10, 4), (1, 4, 8, 4, 3), (1, -1, 8, 4), (1, 4, 8, 4, None, 0)])
def test_kv_cache_bytes_refuses_shapes_that_do_not_divide(arguments):
    with pytest.raises(ValueError):
        attn.kv_cache_bytes(*arguments)


@pytest.mark.parametrize("n, d, d_ff", [(1, 4, 16), (7, 8, 32), (100, 512, 2048)])
def test_token_flops_by_hand(n, d, d_ff):
    with_cache = 8 * d * d + 4 * n * d + 4 * d * d_ff
    assert attn.token_flops(n, d, d_ff, cached=True) == with_cache
    assert attn.token_flops(n, d, d_ff, cached=False) == n * with_cache
    assert attn.token_flops(n, d, d_ff, cached=False) - 4 * n * d * (2 * d + d_ff) == attn.attention_flops(n, d)


def test_token_flops_counts_the_products_one_multiply_add_at_a_time():
    """A loop over every output entry of every product, adding 2 FLOPs per multiply-add."""
    n, d, d_ff, h = 3, 4, 6, 2

    def loop_count(rows, keys):
        total = 0
        for a, b, c in [(rows, d, d)] * 4 + [(rows, d, d_ff), (rows, d_ff, d)]:
            total += sum(2 * b for _ in range(a * c))  # each of a*c outputs is a dot product of length b
        for _ in range(h):
            total += sum(2 * (d // h) for _ in range(rows * keys))  # scores
            total += sum(2 * keys for _ in range(rows * (d // h)))  # weights @ V
        return total

    assert attn.token_flops(n, d, d_ff, cached=True) == loop_count(1, n)
    assert attn.token_flops(n, d, d_ff, cached=False) == loop_count(n, n)


# ------------------------------------------------- the decoder-only model, generating --


@pytest.fixture
def lm_config():
    return attn.Config(vocab=11, d_model=12, h=3, d_ff=24, N=3, pad=None)


@pytest.fixture
def lm(rng, lm_config):
    return attn.init_decoder_only(rng, lm_config)


def lm_by_hand(tokens, params, h):
    """The decoder-only model written out: scaled embeddings, positions, layers, tied output."""
    n, d_model = len(tokens), params["embedding"].shape[1]
    x = np.stack([params["embedding"][t] * math.sqrt(d_model) for t in tokens])
    x = x + attn.positional_encoding(n, d_model)
    for layer in params["layers"]:
        x = attn.encoder_layer(x, layer, h, attn.causal_mask(n))
    return x @ params["embedding"].T


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


def test_position_rows_are_rows_of_the_encoding():
    for d_model in (6, 7):
        np.testing.assert_allclose(
            position_rows(5, 3, d_model), attn.positional_encoding(8, d_model)[5:], rtol=0, atol=1e-15
        )


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


def test_generation_refuses_an_empty_prompt(lm, lm_config):
    with pytest.raises(ValueError, match="at least one token"):
        attn.greedy_generate(lm, [], lm_config, steps=2)


def test_cached_generation_refuses_a_batch(lm, lm_config):
    with pytest.raises(ValueError, match="one sequence"):
        attn.greedy_generate(lm, [[1, 2]], lm_config, steps=2)


def test_init_wants_a_generator(lm_config):
    with pytest.raises(TypeError, match="Generator"):
        attn.init_decoder_only(0, lm_config)


def test_init_is_reproducible():
    config = attn.Config(vocab=5, d_model=4, h=2, d_ff=8, N=2)
    a = attn.init_decoder_only(np.random.default_rng(3), config)
    b = attn.init_decoder_only(np.random.default_rng(3), config)
    np.testing.assert_array_equal(a["embedding"], b["embedding"])
    assert math.isclose(float(a["layers"][1]["ffn"]["W_2"].sum()), float(b["layers"][1]["ffn"]["W_2"].sum()))
