"""attn.rope, attn.alibi, attn.relative, attn.absolute and attn.prenorm against independent formulations.

References: rotation matrices built entry by entry, the ALiBi authors' slope recursion rewritten
from its description, Shaw et al.'s equations evaluated pair by pair, and the layers written out
with layer_norm, multi_head_attention and feed_forward.
"""

import math

import numpy as np
import pytest

import attn

# ---------------------------------------------------------------- RoPE --


def rotation_matrix(position, d_k, base=10000.0):
    """The block-diagonal rotation R_m of RoFormer, one 2 x 2 block per pair, built entry by entry."""
    r = np.zeros((d_k, d_k))
    for i in range(d_k // 2):
        angle = position * base ** (-2 * i / d_k)
        c, s = math.cos(angle), math.sin(angle)
        r[2 * i, 2 * i], r[2 * i, 2 * i + 1] = c, -s
        r[2 * i + 1, 2 * i], r[2 * i + 1, 2 * i + 1] = s, c
    return r


@pytest.mark.parametrize("d_k", [2, 4, 10])
def test_rope_is_the_block_rotation(rng, d_k):
    x = rng.standard_normal((3, 5, d_k))
    positions = np.array([0, 1, 7, 100, 12345])
    got = attn.apply_rope(x, positions)
    for p, position in enumerate(positions):
        np.testing.assert_allclose(got[:, p], x[:, p] @ rotation_matrix(position, d_k).T, rtol=0, atol=1e-12)


def test_rope_scores_depend_only_on_the_offset(rng):
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    positions = np.arange(0, 300, 7)
    rq = attn.apply_rope(np.tile(q, (len(positions), 1)), positions)
    rk = attn.apply_rope(np.tile(k, (len(positions), 1)), positions)
    scores = rq @ rk.T
    for a in range(len(positions)):
        for b in range(len(positions)):
            expected = q @ rotation_matrix(positions[b] - positions[a], 8) @ k
            assert scores[a, b] == pytest.approx(expected, abs=1e-10)


def test_rope_keeps_lengths_defaults_to_arange_and_leaves_its_input_alone(rng):
    x = rng.standard_normal((6, 4))
    before = x.copy()
    got = attn.apply_rope(x)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), np.linalg.norm(x, axis=1), rtol=1e-13)
    np.testing.assert_array_equal(got, attn.apply_rope(x, np.arange(6)))
    np.testing.assert_array_equal(got[0], x[0])  # position 0 does not turn
    np.testing.assert_array_equal(x, before)


def test_rope_keeps_float32_and_turns_ints_into_float64(rng):
    assert attn.apply_rope(rng.standard_normal((3, 4)).astype(np.float32)).dtype == np.float32
    assert attn.apply_rope(np.ones((3, 4), dtype=int)).dtype == np.float64


@pytest.mark.parametrize("shape, positions", [((3, 5), None), ((5,), None), ((3, 4), [0, 1]), ((3, 4), [[0, 1, 2]])])
def test_rope_refuses_bad_shapes(shape, positions):
    with pytest.raises(ValueError):
        attn.apply_rope(np.ones(shape), positions)


# ---------------------------------------------------------------- ALiBi --


def authors_slopes(n):
    """The slope recursion of the ALiBi authors' code, rewritten from its description."""

    def power_of_two(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_two(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_two(closest) + authors_slopes(2 * closest)[0::2][: n - closest]


def test_alibi_slopes_for_8_and_16_heads_are_the_papers():
    np.testing.assert_allclose(attn.alibi_slopes(8), [1 / 2**k for k in range(1, 9)], rtol=1e-15)
    np.testing.assert_allclose(attn.alibi_slopes(16), [1 / 2 ** (k / 2) for k in range(1, 17)], rtol=1e-15)


@pytest.mark.parametrize("h", [1, 2, 3, 5, 6, 8, 12, 16, 20, 32])
def test_alibi_slopes_match_the_authors_code(h):
    np.testing.assert_allclose(attn.alibi_slopes(h), authors_slopes(h), rtol=1e-14)  # products vs powers


def test_alibi_bias_by_hand():
    bias = attn.alibi_bias(4, [0.5, 0.25])
    np.testing.assert_array_equal(bias[0][np.tri(4, dtype=bool)], [0, -0.5, 0, -1, -0.5, 0, -1.5, -1, -0.5, 0])
    np.testing.assert_array_equal(bias[1, 3], [-0.75, -0.5, -0.25, 0.0])
    assert bias.shape == (2, 4, 4)


def test_alibi_attention_is_a_loop_over_keys(rng):
    h, n, d_k = 4, 5, 3
    q, k, v = (
        rng.standard_normal((2, h, n, d_k)),
        rng.standard_normal((2, h, n, d_k)),
        rng.standard_normal((2, h, n, 2)),
    )
    slopes = attn.alibi_slopes(h)
    out, weights = attn.alibi_attention(q, k, v, slopes, return_weights=True)
    for b in range(2):
        for head in range(h):
            for i in range(n):
                scores = [q[b, head, i] @ k[b, head, j] / math.sqrt(d_k) - slopes[head] * (i - j) for j in range(i + 1)]
                w = np.exp(np.array(scores) - max(scores))
                w /= w.sum()
                np.testing.assert_allclose(weights[b, head, i], np.concatenate([w, np.zeros(n - i - 1)]), atol=1e-12)
                np.testing.assert_allclose(out[b, head, i], w @ v[b, head, : i + 1], atol=1e-12)


@pytest.mark.parametrize("slopes", [[0.5], [[0.5, 0.25, 0.1, 0.1]]])
def test_alibi_attention_needs_one_slope_per_head(rng, slopes):
    q = rng.standard_normal((4, 3, 2))
    with pytest.raises(ValueError):
        attn.alibi_attention(q, q, q, slopes)


def test_alibi_refuses_bad_input():
    with pytest.raises(ValueError):
        attn.alibi_bias(3, np.ones((2, 2)))
    with pytest.raises((TypeError, ValueError)):
        attn.alibi_slopes(0)


# ------------------------------------------------------------- relative --


def test_relative_offsets_by_hand():
    np.testing.assert_array_equal(
        attn.relative_offsets(3, 5, 1), [[0, 1, 1, 1, 1], [-1, 0, 1, 1, 1], [-1, -1, 0, 1, 1]]
    )
    np.testing.assert_array_equal(attn.relative_offsets(2, 2, 0), np.zeros((2, 2)))


@pytest.mark.parametrize("clip", [0, 1, 3])
@pytest.mark.parametrize("with_values", [True, False])
def test_relative_attention_is_shaws_equations_pair_by_pair(rng, clip, with_values):
    n_q, n_k, d_k, d_v = 4, 6, 3, 2
    q, k, v = rng.standard_normal((n_q, d_k)), rng.standard_normal((n_k, d_k)), rng.standard_normal((n_k, d_v))
    w_k = rng.standard_normal((2 * clip + 1, d_k))
    w_v = rng.standard_normal((2 * clip + 1, d_v)) if with_values else None
    mask = rng.random((n_q, n_k)) < 0.7
    mask[:, 0] = True
    out, weights = attn.relative_attention(q, k, v, w_k, w_v, mask, return_weights=True)
    for i in range(n_q):
        rows = [max(-clip, min(clip, j - i)) + clip for j in range(n_k)]
        e = np.array([q[i] @ (k[j] + w_k[rows[j]]) / math.sqrt(d_k) if mask[i, j] else -np.inf for j in range(n_k)])
        alpha = np.exp(e - e.max())
        alpha /= alpha.sum()
        z = sum(alpha[j] * (v[j] + (w_v[rows[j]] if with_values else 0)) for j in range(n_k))
        np.testing.assert_allclose(weights[i], alpha, atol=1e-12)
        np.testing.assert_allclose(out[i], z, atol=1e-12)


def test_relative_attention_with_zero_tables_is_plain_attention(rng):
    q, k, v = rng.standard_normal((2, 5, 4)), rng.standard_normal((2, 5, 4)), rng.standard_normal((2, 5, 3))
    np.testing.assert_allclose(
        attn.relative_attention(q, k, v, np.zeros((5, 4)), np.zeros((5, 3))),
        attn.scaled_dot_product_attention(q, k, v),
        atol=1e-12,
    )


@pytest.mark.parametrize(
    "w_k, w_v, mask",
    [
        (np.zeros((4, 2)), None, None),  # an even number of rows
        (np.zeros((3, 5)), None, None),  # the wrong width
        (np.zeros((3, 2)), np.zeros((5, 2)), None),
        (np.zeros((3, 2)), None, np.ones((3, 3))),  # a mask that is not boolean
    ],
)
def test_relative_attention_refuses_bad_tables(w_k, w_v, mask):
    x = np.ones((3, 2))
    with pytest.raises((TypeError, ValueError)):
        attn.relative_attention(x, x, x, w_k, w_v, mask)


# ------------------------------------------------------------- absolute --


def test_learned_positions_hand_out_copies_of_the_first_rows(rng):
    table = attn.init_learned_positions(rng, 5, 3)
    rows = attn.learned_positions(table, 4)
    np.testing.assert_array_equal(rows, table[:4])
    rows[0, 0] = 99.0
    assert table[0, 0] != 99.0
    assert attn.learned_positions(table, 0).shape == (0, 3)


def test_learned_positions_have_no_row_past_the_table(rng):
    table = attn.init_learned_positions(rng, 5, 3)
    with pytest.raises(ValueError, match="position 5 has no vector"):
        attn.learned_positions(table, 6)
    with pytest.raises(ValueError):
        attn.learned_positions(np.ones(5), 2)
    with pytest.raises(TypeError):
        attn.init_learned_positions(1, 5, 3)


# -------------------------------------------------------------- prenorm --


@pytest.fixture
def layers(rng):
    return [attn.init_encoder_layer(rng, 8, 16) for _ in range(3)]


def test_pre_norm_layer_follows_the_formula(rng, layers):
    x = rng.standard_normal((2, 5, 8))
    p = layers[0]
    mask = attn.causal_mask(5)
    z = attn.layer_norm(x, **p["norm1"])
    y = x + attn.multi_head_attention(z, z, p["self_attn"], 2, mask)
    y = y + attn.feed_forward(attn.layer_norm(y, **p["norm2"]), p["ffn"])
    np.testing.assert_allclose(attn.pre_norm_layer(x, p, 2, mask), y, rtol=0, atol=1e-12)


def test_a_pre_norm_stack_is_its_input_plus_every_sublayer(rng, layers):
    x = rng.standard_normal((5, 8))
    total, y = x.copy(), x
    for p in layers:
        z = attn.layer_norm(y, **p["norm1"])
        attention = attn.multi_head_attention(z, z, p["self_attn"], 2)
        ffn = attn.feed_forward(attn.layer_norm(y + attention, **p["norm2"]), p["ffn"])
        total += attention + ffn
        y = y + attention + ffn
    np.testing.assert_allclose(attn.pre_norm_stack(x, layers, 2, final_norm=None), total, rtol=0, atol=1e-12)
    final = attn.init_layer_norm(8)
    np.testing.assert_allclose(attn.pre_norm_stack(x, layers, 2, final), attn.layer_norm(total), rtol=0, atol=1e-12)


def test_post_norm_stack_is_encoder_layer_repeated(rng, layers):
    x = rng.standard_normal((5, 8))
    y = x
    for p in layers:
        y = attn.encoder_layer(y, p, 2)
    np.testing.assert_array_equal(attn.post_norm_stack(x, layers, 2), y)
    assert np.allclose(attn.post_norm_stack(x, layers, 2).mean(axis=-1), 0)
