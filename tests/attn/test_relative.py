"""attn.relative: Shaw et al.'s equations pair by pair."""

import math

import numpy as np
import pytest

import attn

# -------------------------------------------------------------- relative --


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
