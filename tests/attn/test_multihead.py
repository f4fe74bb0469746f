"""attn.multihead against a loop over heads, and the symmetries of attention without positions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn.core import causal_mask, padding_mask, scaled_dot_product_attention
from attn.init import init_attention, init_multi_head
from attn.multihead import attention_head, merge_heads, multi_head_attention, split_heads
from attn.position import positional_encoding


def loop_multi_head(x_q, x_kv, params, h, mask=None):
    """Concat(head_1..head_h) W_o with an explicit loop and per-head column slices of W."""
    d_model = params["W_q"].shape[1]
    d_k = d_model // h
    heads = []
    for i in range(h):
        cols = slice(i * d_k, (i + 1) * d_k)
        q = x_q @ params["W_q"][:, cols]
        k = x_kv @ params["W_k"][:, cols]
        v = x_kv @ params["W_v"][:, cols]
        heads.append(scaled_dot_product_attention(q, k, v, mask))
    return np.concatenate(heads, axis=-1) @ params["W_o"]


SHAPES = [  # (batch, n, d_model, h)
    ((), 1, 1, 1),
    ((), 4, 8, 1),
    ((), 4, 8, 2),
    ((), 5, 8, 8),
    ((2,), 6, 12, 3),
    ((3,), 7, 16, 4),
    ((2, 2), 3, 6, 2),
    ((1,), 300, 8, 2),  # more positions than one query block
]


@pytest.mark.parametrize("batch, n, d_model, h", SHAPES)
def test_split_and_merge_heads(rng, batch, n, d_model, h):
    x = rng.standard_normal(batch + (n, d_model))
    heads = split_heads(x, h)
    assert heads.shape == batch + (h, n, d_model // h)
    for i in range(h):  # head i is the i-th group of d_k columns
        np.testing.assert_array_equal(heads[..., i, :, :], x[..., i * (d_model // h) : (i + 1) * (d_model // h)])
    np.testing.assert_array_equal(merge_heads(heads), x)


@pytest.mark.parametrize("batch, n, d_model, h", SHAPES)
def test_multi_head_matches_loop_over_heads(rng, batch, n, d_model, h):
    params = init_multi_head(rng, d_model)
    x = rng.standard_normal(batch + (n, d_model))
    out = multi_head_attention(x, x, params, h)
    assert out.shape == batch + (n, d_model)
    np.testing.assert_allclose(out, loop_multi_head(x, x, params, h), rtol=0, atol=1e-12)


@pytest.mark.parametrize("batch, n, d_model, h", SHAPES)
def test_multi_head_weights(rng, batch, n, d_model, h):
    params = init_multi_head(rng, d_model)
    x_q = rng.standard_normal(batch + (n, d_model))
    x_kv = rng.standard_normal(batch + (n + 2, d_model))  # cross-attention: different n_k
    out, weights = multi_head_attention(x_q, x_kv, params, h, return_weights=True)
    assert weights.shape == batch + (h, n, n + 2)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(out, multi_head_attention(x_q, x_kv, params, h), atol=1e-12)
    np.testing.assert_allclose(out, loop_multi_head(x_q, x_kv, params, h), atol=1e-12)


def test_masks_are_shared_by_heads(rng):
    params = init_multi_head(rng, 8)
    x = rng.standard_normal((2, 5, 8))
    for mask in (causal_mask(5), padding_mask(np.array([5, 3]), 5)):
        out, weights = multi_head_attention(x, x, params, 4, mask, return_weights=True)
        np.testing.assert_allclose(out, loop_multi_head(x, x, params, 4, mask), atol=1e-12)
        assert np.all(weights[np.broadcast_to(~mask[..., None, :, :], weights.shape)] == 0.0)


def test_one_head_is_a_single_attention_head(rng):
    d_model = 6
    params = init_multi_head(rng, d_model)
    x = rng.standard_normal((5, d_model))
    head = attention_head(x, x, {name: params[name] for name in ("W_q", "W_k", "W_v")})
    np.testing.assert_allclose(multi_head_attention(x, x, params, 1), head @ params["W_o"], atol=1e-12)


def test_attention_head(rng):
    params = init_attention(rng, 8, d_k=4, d_v=3)
    x_q, x_kv = rng.standard_normal((5, 8)), rng.standard_normal((7, 8))
    out, weights = attention_head(x_q, x_kv, params, return_weights=True)
    assert out.shape == (5, 3) and weights.shape == (5, 7)
    expected = scaled_dot_product_attention(x_q @ params["W_q"], x_kv @ params["W_k"], x_kv @ params["W_v"])
    np.testing.assert_allclose(out, expected, atol=1e-14)


@pytest.mark.parametrize("h", [1, 2, 4])
def test_permutation_equivariance_without_positions(rng, h):
    n, d_model = 6, 8
    params = init_multi_head(rng, d_model)
    x = rng.standard_normal((n, d_model))
    perm = rng.permutation(n)
    np.testing.assert_allclose(
        multi_head_attention(x[perm], x[perm], params, h), multi_head_attention(x, x, params, h)[perm], atol=1e-12
    )


@pytest.mark.parametrize("h", [1, 2, 4])
def test_positional_encoding_breaks_equivariance(rng, h):
    n, d_model = 6, 8
    params = init_multi_head(rng, d_model)
    x = rng.standard_normal((n, d_model))
    pe = positional_encoding(n, d_model)
    perm = np.array([2, 1, 0, 3, 4, 5])
    with_pos = multi_head_attention(x + pe, x + pe, params, h)
    shuffled = multi_head_attention(x[perm] + pe, x[perm] + pe, params, h)
    assert not np.allclose(shuffled, with_pos[perm], atol=1e-6)


@pytest.mark.parametrize(
    "h, error", [(0, ValueError), (3, ValueError), (-1, ValueError), (2.0, TypeError), (True, TypeError)]
)
def test_split_heads_rejects_bad_h(h, error):
    with pytest.raises(error, match="h"):
        split_heads(np.ones((2, 8)), h)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(1, 10),
    st.sampled_from([(4, 1), (4, 2), (4, 4), (6, 3), (12, 4)]),
    st.floats(1e-2, 30.0),
    st.integers(0, 2**32 - 1),
)
def test_multi_head_property(batch, n, dims, scale, seed):
    d_model, h = dims
    gen = np.random.default_rng(seed)
    params = {name: gen.standard_normal((d_model, d_model)) for name in ("W_q", "W_k", "W_v", "W_o")}
    x = gen.uniform(-scale, scale, (batch, n, d_model))  # scores reach ~1e4 at the top end
    out, weights = multi_head_attention(x, x, params, h, return_weights=True)
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(weights))
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(out, loop_multi_head(x, x, params, h), rtol=1e-9, atol=1e-9 * np.abs(out).max())
