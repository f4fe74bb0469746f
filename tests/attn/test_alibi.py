"""attn.alibi: the papers' slopes and a loop over keys."""

import math

import numpy as np
import pytest

import attn


def authors_slopes(n):
    """The slope recursion of the ALiBi authors' code, rewritten from its description."""

    def power_of_two(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_two(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_two(closest) + authors_slopes(2 * closest)[0::2][: n - closest]


# ----------------------------------------------------------------- ALiBi --


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
