"""attn.core against loops written out by hand, hand-derived numbers and properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attn.core import causal_mask, dot_product_weights, padding_mask, scaled_dot_product_attention, softmax


def loop_attention(q, k, v, mask=None):
    """softmax(q k^T / sqrt(d_k)) v with Python loops and math.exp, one (n, d) problem.

    A fully masked row gives zeros, the documented choice of attn.
    """
    n_q, d_k = len(q), len(q[0])
    n_k, d_v = len(k), len(v[0])
    out = []
    for i in range(n_q):
        scores = []
        for j in range(n_k):
            if mask is not None and not mask[i][j]:
                scores.append(None)
                continue
            dot = 0.0
            for t in range(d_k):
                dot += float(q[i][t]) * float(k[j][t])
            scores.append(dot / math.sqrt(d_k))
        live = [s for s in scores if s is not None]
        if not live:
            out.append([0.0] * d_v)
            continue
        top = max(live)
        weights = [0.0 if s is None else math.exp(s - top) for s in scores]
        total = sum(weights)
        row = []
        for c in range(d_v):
            acc = 0.0
            for j in range(n_k):
                acc += weights[j] * float(v[j][c])
            row.append(acc / total)
        out.append(row)
    return np.array(out).reshape(n_q, d_v)


def loop_softmax(row):
    """Softmax of one list of numbers with math.exp; all -inf gives zeros."""
    live = [x for x in row if x != -math.inf]
    if not live:
        return [0.0] * len(row)
    top = max(live)
    e = [0.0 if x == -math.inf else math.exp(x - top) for x in row]
    return [x / sum(e) for x in e]


A, B, C = [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]

TOKENS = np.array([A, B, C])  # (n, d_model) = (3, 2); identity projections: Q = K = V = X


# ---------------------------------------------------------- hand-derived --


def test_hand_derived_scaled_scores():
    scores = TOKENS @ TOKENS.T / math.sqrt(2)
    assert scores[0].round(3).tolist() == [0.707, 0.0, 0.707]
    assert scores[2].round(3).tolist() == [0.707, 0.707, 1.414]


def test_hand_derived_weights_and_outputs():
    out, weights = scaled_dot_product_attention(TOKENS, TOKENS, TOKENS, return_weights=True)
    assert weights[2].round(3).tolist() == [0.248, 0.248, 0.503]
    assert out.round(3).tolist() == [[0.802, 0.599], [0.599, 0.802], [0.752, 0.752]]
    np.testing.assert_allclose(scaled_dot_product_attention(TOKENS, TOKENS, TOKENS), out, rtol=0, atol=1e-15)


# --------------------------------------------------------------- softmax --


@pytest.mark.parametrize(
    "row",
    [
        [0.0],
        [1.0, 2.0, 3.0],
        [-1.0, 0.0, 1.0, 100.0],
        [1e4, 0.0, -1e4],
        [-1e4, -1e4 + 1.0],
        [0.0, -math.inf, 1.0],
        [-math.inf, -math.inf],
    ],
)
def test_softmax_matches_loop(row):
    np.testing.assert_allclose(softmax(np.array(row)), loop_softmax(row), rtol=1e-14, atol=0)


def test_softmax_axis(rng):
    x = rng.standard_normal((3, 4, 5))
    for axis in (0, 1, 2, -1):
        np.testing.assert_allclose(softmax(x, axis=axis).sum(axis=axis), 1.0, rtol=1e-14)
        np.testing.assert_allclose(softmax(x, axis=axis), np.moveaxis(softmax(np.moveaxis(x, axis, -1)), -1, axis))


def test_softmax_is_shift_invariant(rng):
    x = rng.standard_normal((4, 6))
    np.testing.assert_allclose(softmax(x), softmax(x + 1234.5), rtol=1e-9)


def test_softmax_masked_entries_are_exactly_zero():
    x = np.array([[1.0, -np.inf, 3.0], [-np.inf, -np.inf, -np.inf]])
    w = softmax(x)
    assert w[0, 1] == 0.0
    assert np.all(w[1] == 0.0)  # fully masked: zeros, no nan, no warning (warnings are errors here)
    assert w[0].sum() == pytest.approx(1.0)


def test_softmax_dtypes():
    assert softmax(np.array([1, 2, 3])).dtype == np.float64
    assert softmax(np.array([1, 2, 3], dtype=np.float32)).dtype == np.float32


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6), elements=st.floats(-1e4, 1e4)))
def test_softmax_properties(x):
    w = softmax(x)
    assert w.shape == x.shape
    assert np.all(np.isfinite(w))
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)


SHAPES = [  # (n_q, n_k, d_k, d_v)
    (1, 1, 1, 1),
    (3, 3, 2, 2),
    (4, 7, 3, 5),
    (7, 4, 8, 1),
    (300, 20, 4, 3),  # more query rows than one block
]


# ---------------------------------------------------- attention vs loops --


@pytest.mark.parametrize("n_q, n_k, d_k, d_v", SHAPES)
def test_attention_matches_loop(rng, n_q, n_k, d_k, d_v):
    q, k, v = rng.standard_normal((n_q, d_k)), rng.standard_normal((n_k, d_k)), rng.standard_normal((n_k, d_v))
    expected = loop_attention(q.tolist(), k.tolist(), v.tolist())
    np.testing.assert_allclose(scaled_dot_product_attention(q, k, v), expected, rtol=0, atol=1e-12)
    out, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)
    assert weights.shape == (n_q, n_k)


@pytest.mark.parametrize("n_q, n_k, d_k, d_v", SHAPES)
def test_masked_attention_matches_loop(rng, n_q, n_k, d_k, d_v):
    q, k, v = rng.standard_normal((n_q, d_k)), rng.standard_normal((n_k, d_k)), rng.standard_normal((n_k, d_v))
    mask = rng.random((n_q, n_k)) < 0.6
    mask[0] = False  # one fully masked row
    expected = loop_attention(q.tolist(), k.tolist(), v.tolist(), mask.tolist())
    np.testing.assert_allclose(scaled_dot_product_attention(q, k, v, mask), expected, rtol=0, atol=1e-12)
    out, weights = scaled_dot_product_attention(q, k, v, mask, return_weights=True)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)
    assert np.all(weights[~mask] == 0.0)
    assert np.all(out[0] == 0.0)


def test_batched_attention_is_attention_per_batch(rng):
    q = rng.standard_normal((2, 3, 5, 4))  # (batch, h, n_q, d_k)
    k = rng.standard_normal((2, 3, 6, 4))
    v = rng.standard_normal((2, 3, 6, 2))
    out = scaled_dot_product_attention(q, k, v)
    assert out.shape == (2, 3, 5, 2)
    for b in range(2):
        for i in range(3):
            np.testing.assert_allclose(
                out[b, i], loop_attention(q[b, i].tolist(), k[b, i].tolist(), v[b, i].tolist()), atol=1e-12
            )


def test_keys_and_values_broadcast_over_batch(rng):
    q = rng.standard_normal((4, 5, 3))  # (batch, n_q, d_k)
    k, v = rng.standard_normal((6, 3)), rng.standard_normal((6, 2))  # shared by every batch entry
    out = scaled_dot_product_attention(q, k, v)
    assert out.shape == (4, 5, 2)
    np.testing.assert_allclose(out[2], scaled_dot_product_attention(q[2], k, v), atol=1e-15)


@pytest.mark.parametrize("return_weights", [False, True])
def test_weights_rows_sum_to_one(rng, return_weights):
    q, k, v = (rng.standard_normal((2, 9, 4)) for _ in range(3))
    out, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-14)
    np.testing.assert_allclose(out, weights @ v, atol=1e-14)


def test_large_scores_do_not_overflow():
    q = np.full((3, 4), 100.0)
    k = np.array([[100.0] * 4, [-100.0] * 4, [50.0] * 4])  # scores 2e4, -2e4, 1e4 after scaling
    v = np.eye(3)
    out, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    np.testing.assert_array_equal(weights, [[1.0, 0.0, 0.0]] * 3)
    np.testing.assert_array_equal(scaled_dot_product_attention(q, k, v), out)


def test_float32_stays_float32(rng):
    q, k, v = (rng.standard_normal((50, 8)) for _ in range(3))
    out32 = scaled_dot_product_attention(q.astype(np.float32), k.astype(np.float32), v.astype(np.float32))
    assert out32.dtype == np.float32
    np.testing.assert_allclose(out32, scaled_dot_product_attention(q, k, v), atol=1e-5)
    _, w32 = scaled_dot_product_attention(*(a.astype(np.float32) for a in (q, k, v)), return_weights=True)
    assert w32.dtype == np.float32


def test_integer_inputs_give_float64():
    x = np.array([[1, 0], [0, 1], [1, 1]])
    out = scaled_dot_product_attention(x, x, x)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, scaled_dot_product_attention(TOKENS, TOKENS, TOKENS))


@pytest.mark.parametrize(
    "q_shape, k_shape, v_shape",
    [((3, 4), (3, 5), (3, 2)), ((3, 4), (3, 4), (2, 2)), ((4,), (3, 4), (3, 2)), ((3, 4), (0, 4), (0, 2))],
)
def test_bad_shapes_raise(q_shape, k_shape, v_shape):
    with pytest.raises(ValueError):
        scaled_dot_product_attention(np.ones(q_shape), np.ones(k_shape), np.ones(v_shape))


def test_bad_masks_raise():
    x = np.ones((3, 2))
    with pytest.raises(TypeError):
        scaled_dot_product_attention(x, x, x, mask=np.ones((3, 3)))  # not boolean
    with pytest.raises(ValueError):
        scaled_dot_product_attention(x, x, x, mask=np.ones((2, 3), dtype=bool))
    with pytest.raises(ValueError):
        scaled_dot_product_attention(x, x, x, mask=np.ones((2, 3), dtype=bool), return_weights=True)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 3),  # batch
    st.integers(1, 9),  # n_q
    st.integers(1, 9),  # n_k
    st.integers(1, 5),  # d_k
    st.integers(1, 4),  # d_v
    st.floats(1e-3, 1e2),  # spread of the values: products reach 1e4
    st.integers(0, 2**32 - 1),
)
def test_attention_properties(batch, n_q, n_k, d_k, d_v, spread, seed):
    gen = np.random.default_rng(seed)
    q = gen.uniform(-spread, spread, (batch, n_q, d_k))
    k = gen.uniform(-spread, spread, (batch, n_k, d_k))
    v = gen.standard_normal((batch, n_k, d_v))
    mask = gen.random((batch, n_q, n_k)) < 0.7
    out, weights = scaled_dot_product_attention(q, k, v, mask, return_weights=True)
    fast = scaled_dot_product_attention(q, k, v, mask)
    assert out.shape == fast.shape == (batch, n_q, d_v)
    assert np.all(np.isfinite(fast)) and np.all(np.isfinite(weights))
    assert np.all(weights[~mask] == 0.0)
    live = mask.any(axis=-1)
    np.testing.assert_allclose(weights.sum(axis=-1)[live], 1.0, rtol=1e-12)
    assert np.all(weights.sum(axis=-1)[~live] == 0.0)
    np.testing.assert_allclose(fast, out, rtol=1e-12, atol=1e-12)
    # a live row's output is a convex combination of value rows; a dead row's is 0
    high = np.broadcast_to(v.max(axis=-2, keepdims=True), fast.shape)[live]
    low = np.broadcast_to(v.min(axis=-2, keepdims=True), fast.shape)[live]
    assert np.all((fast[live] <= high + 1e-9) & (fast[live] >= low - 1e-9))
    assert np.all(fast[~live] == 0.0)


# ------------------------------------------------------ the shared weights --


def loop_weights(q, k, mask, bias):
    """softmax(q_i . k_j / sqrt(d_k) + bias_ij) over the allowed keys, entry by entry with math.exp."""
    d_k = len(q[0])
    rows = []
    for i in range(len(q)):
        scores = [
            sum(float(a) * float(b) for a, b in zip(q[i], k[j], strict=True)) / math.sqrt(d_k) + float(bias[i][j])
            if mask[i][j]
            else -math.inf
            for j in range(len(k))
        ]
        rows.append(loop_softmax(scores))
    return np.array(rows)


def test_dot_product_weights_with_a_bias_and_a_mask_match_a_loop(rng):
    q, k = rng.standard_normal((4, 3)), rng.standard_normal((5, 3))
    mask, bias = rng.random((4, 5)) < 0.7, rng.standard_normal((4, 5))
    mask[2] = False  # a fully masked row: all zero
    np.testing.assert_allclose(
        dot_product_weights(q, k, mask, bias), loop_weights(q, k, mask, bias), rtol=0, atol=1e-14
    )


def test_dot_product_weights_are_the_weights_of_attention(rng):
    q, k, v = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 6, 3)), rng.standard_normal((2, 6, 2))
    mask = rng.random((2, 4, 6)) < 0.7
    _, weights = scaled_dot_product_attention(q, k, v, mask, return_weights=True)
    np.testing.assert_array_equal(dot_product_weights(q, k, mask), weights)


def test_a_bias_of_minus_infinity_masks_and_a_constant_bias_changes_nothing(rng):
    q, k = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))
    blocked = np.zeros((3, 5))
    blocked[:, 1] = -np.inf
    mask = np.ones((3, 5), dtype=bool)
    mask[:, 1] = False
    np.testing.assert_allclose(dot_product_weights(q, k, bias=blocked), dot_product_weights(q, k, mask), atol=1e-15)
    np.testing.assert_allclose(
        dot_product_weights(q, k, bias=np.full((3, 5), 7.0)), dot_product_weights(q, k), atol=1e-15
    )


# ----------------------------------------------------------------- masks --


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_causal_mask(n):
    mask = causal_mask(n)
    assert mask.dtype == bool and mask.shape == (n, n)
    for i in range(n):
        for j in range(n):
            assert mask[i, j] == (j <= i)


def test_causal_mask_hides_the_future(rng):
    x = rng.standard_normal((6, 4))
    out = scaled_dot_product_attention(x, x, x, causal_mask(6))
    changed = x.copy()
    changed[4:] += 10.0  # change only the last two positions
    out_changed = scaled_dot_product_attention(changed, changed, changed, causal_mask(6))
    np.testing.assert_array_equal(out[:4], out_changed[:4])
    assert not np.allclose(out[4:], out_changed[4:])


def test_padding_mask():
    mask = padding_mask(np.array([3, 1, 0]), 4)
    assert mask.dtype == bool and mask.shape == (3, 1, 4)
    assert mask[:, 0].tolist() == [[True, True, True, False], [True, False, False, False], [False] * 4]


def test_padding_mask_hides_padding(rng):
    x = rng.standard_normal((2, 5, 3))
    mask = padding_mask(np.array([5, 2]), 5)
    out = scaled_dot_product_attention(x, x, x, mask)
    changed = x.copy()
    changed[1, 2:] = 99.0  # the padding of the second sequence
    out_changed = scaled_dot_product_attention(x, changed, changed, mask)
    np.testing.assert_array_equal(out, out_changed)


def test_empty_sequence_gives_zeros_without_warning(rng):
    x = rng.standard_normal((1, 4, 3))
    out = scaled_dot_product_attention(x, x, x, padding_mask(np.array([0]), 4))
    assert np.all(out == 0.0)


@pytest.mark.parametrize(
    "lengths, n, error",
    [
        ([5], 4, ValueError),
        ([-1], 4, ValueError),
        ([[1]], 4, ValueError),
        ([1.5], 4, TypeError),
        ([True], 4, TypeError),
    ],
)
def test_padding_mask_rejects_bad_lengths(lengths, n, error):
    with pytest.raises(error, match="lengths"):
        padding_mask(np.array(lengths), n)


@pytest.mark.parametrize("n, error", [(-1, ValueError), (2.0, TypeError), (True, TypeError)])
def test_causal_mask_rejects_bad_n(n, error):
    with pytest.raises(error):
        causal_mask(n)


def test_a_loose_shift_bound_falls_back_to_the_exact_maximum():
    """The unmasked fast path shifts each row by |q_i| max_j |k_j|. One long key orthogonal to the
    queries makes that bound ~1e7 above every real score: every shifted exponential underflows,
    and the block must be recomputed exactly rather than divide 0 by 0."""
    rng = np.random.default_rng(7)
    q = np.zeros((5, 4))
    q[:, 1:] = rng.standard_normal((5, 3)) * 1e3  # no component along the long key
    k = rng.standard_normal((6, 4))
    k[0] = [1e4, 0.0, 0.0, 0.0]
    v = rng.standard_normal((6, 3))
    out = scaled_dot_product_attention(q, k, v)
    weights = softmax(q @ k.T / 2.0)  # d_k = 4: divide by 2
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out, weights @ v, rtol=1e-12, atol=1e-12)
