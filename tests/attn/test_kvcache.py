"""attn.kvcache against independent formulations: full causal attention, hand-computed bytes and FLOPs."""

import numpy as np
import pytest

import attn


def causal_mha(x, params, h):
    """Full causal multi-head attention over all of x: the reference a cache must reproduce."""
    return attn.multi_head_attention(x, x, params, h, attn.causal_mask(x.shape[0]))


# --------------------------------------------------------------- KVCache --


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


# ------------------------------------------------------ cached attention --


@pytest.mark.parametrize("chunks", [[1] * 7, [7], [3, 1, 1, 2], [2, 5]])
@pytest.mark.parametrize("groups", [4, 2, 1])
def test_cached_attention_reproduces_the_full_causal_pass(rng, chunks, groups, grouped_by_copying):
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


# ----------------------------------------------------------------- costs --


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
