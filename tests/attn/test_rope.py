"""attn.rope: RoPE as the block rotation of the paper, scores that depend only on the offset."""

import math

import numpy as np
import pytest

import attn


def rotation_matrix(position, d_k, base=10000.0):
    """The block-diagonal rotation R_m of RoFormer, one 2 x 2 block per pair, built entry by entry."""
    r = np.zeros((d_k, d_k))
    for i in range(d_k // 2):
        angle = position * base ** (-2 * i / d_k)
        c, s = math.cos(angle), math.sin(angle)
        r[2 * i, 2 * i], r[2 * i, 2 * i + 1] = c, -s
        r[2 * i + 1, 2 * i], r[2 * i + 1, 2 * i + 1] = s, c
    return r


# ------------------------------------------------------------------ RoPE --


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
