"""attn.grouped against explicit copies of each key/value head for its query heads."""

import numpy as np
import pytest

import attn

# --------------------------------------------------------------- grouped --


@pytest.mark.parametrize("h, groups", [(4, 4), (4, 2), (4, 1), (6, 3), (6, 2)])
def test_grouped_query_attention_equals_copied_heads(rng, h, groups, grouped_by_copying):
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
