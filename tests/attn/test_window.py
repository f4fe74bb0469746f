"""attn.window: the sliding-window mask, its receptive field and the rolling cache, against loops."""

import numpy as np
import pytest

import attn


@pytest.mark.parametrize("n, w", [(1, 1), (5, 1), (6, 3), (7, 7), (4, 10)])
def test_mask_is_the_band_written_out(n, w):
    expected = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(max(0, i - w + 1), i + 1):
            expected[i, j] = True
    np.testing.assert_array_equal(attn.sliding_window_mask(n, w), expected)


def test_a_window_as_long_as_the_sequence_is_the_causal_mask():
    np.testing.assert_array_equal(attn.sliding_window_mask(6, 6), attn.causal_mask(6))


@pytest.mark.parametrize("bad", [0, -1, 2.5, "3"])
def test_mask_refuses_a_bad_window(bad):
    with pytest.raises((ValueError, TypeError)):
        attn.sliding_window_mask(4, bad)


def reach_by_paths(mask, layers):
    """Reachability by breadth-first search over explicit layer-by-layer paths."""
    n = mask.shape[0]
    reach = np.zeros((n, n), dtype=bool)
    for i in range(n):
        frontier = {i}
        for _ in range(layers):
            frontier = {j for f in frontier for j in range(n) if mask[f, j]}
        for j in frontier:
            reach[i, j] = True
    return reach


@pytest.mark.parametrize("n, w, layers", [(12, 3, 1), (12, 3, 2), (20, 4, 3), (9, 2, 8)])
def test_receptive_field_follows_every_path_and_grows_by_w_minus_1_per_layer(n, w, layers):
    mask = attn.sliding_window_mask(n, w)
    reach = attn.receptive_field(mask, layers)
    np.testing.assert_array_equal(reach, reach_by_paths(mask, layers))
    np.testing.assert_array_equal(reach, attn.sliding_window_mask(n, layers * (w - 1) + 1))


def test_receptive_field_refuses_a_non_square_mask():
    with pytest.raises(ValueError, match="square"):
        attn.receptive_field(np.ones((2, 3), dtype=bool), 2)


@pytest.mark.parametrize("window, chunks", [(3, [1] * 9), (4, [2, 1, 3, 1, 1]), (5, [7, 1, 1]), (1, [1, 1, 1])])
def test_rolling_cache_decodes_what_full_attention_under_the_window_mask_gives(rng, window, chunks):
    n, heads, d_k, d_v = sum(chunks), 2, 4, 3
    q, k = rng.standard_normal((heads, n, d_k)), rng.standard_normal((heads, n, d_k))
    v = rng.standard_normal((heads, n, d_v))
    full = attn.scaled_dot_product_attention(q, k, v, mask=attn.sliding_window_mask(n, window))
    cache, start = attn.RollingKVCache(heads, d_k, window, d_v=d_v), 0
    for t in chunks:
        for p in range(start, start + t):  # one query at a time, as decoding does
            keys, values = cache.append(k[:, p : p + 1], v[:, p : p + 1])
            assert keys.shape == (heads, min(p + 1, window), d_k)
            got = attn.scaled_dot_product_attention(q[:, p : p + 1], keys, values)
            np.testing.assert_allclose(got[:, 0], full[:, p], rtol=0, atol=1e-12)
        start += t
    assert cache.length == n and cache.nbytes == 8 * heads * window * (d_k + d_v)


def test_rolling_cache_append_of_many_keeps_the_last_window_in_order():
    cache = attn.RollingKVCache(1, 1, 3)
    keys, _ = cache.append(np.arange(7.0).reshape(1, 7, 1), np.zeros((1, 7, 1)))  # (heads, t, d_k)
    np.testing.assert_array_equal(keys[0, :, 0], [4.0, 5.0, 6.0])
    keys, _ = cache.append(np.full((1, 1, 1), 7.0), np.zeros((1, 1, 1)))
    np.testing.assert_array_equal(keys[0, :, 0], [5.0, 6.0, 7.0])


def test_rolling_cache_returns_copies_and_refuses_wrong_shapes():
    cache = attn.RollingKVCache(2, 3, 2)
    keys, _ = cache.append(np.ones((2, 1, 3)), np.ones((2, 1, 3)))
    keys[:] = 5.0
    assert cache.k.max() == 1.0
    with pytest.raises(ValueError, match="expected k"):
        cache.append(np.ones((1, 1, 3)), np.ones((1, 1, 3)))
    with pytest.raises(ValueError, match="expected k"):
        cache.append(np.ones((2, 1, 3)), np.ones((2, 2, 3)))
