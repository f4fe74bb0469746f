"""attn.embedding: the scaled embedding, the tied output projection and the gradient of E."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn.embedding import embed, embed_backward, output_logits
from attn.position import positional_encoding

# ------------------------------------------------------------- embedding --


def test_embed_scales_by_sqrt_d_model_and_adds_positions(rng):
    E = rng.standard_normal((5, 6))
    tokens = np.array([[4, 0, 4]])
    x = embed(tokens, E)
    for i, token in enumerate(tokens[0]):
        np.testing.assert_allclose(x[0, i], E[token] * math.sqrt(6) + positional_encoding(3, 6)[i], atol=1e-15)
    np.testing.assert_allclose(embed(tokens, E, position=False)[0, 1], E[0] * math.sqrt(6), atol=1e-15)


def test_float32_weights_give_float32_vectors(rng):
    """The sum of embedding and encoding is taken in E's dtype: E[t] sqrt(d_model) and PE, each
    rounded to float32, added in float32, are within 3 float32 eps of the float64 sum (relative
    to the largest entry, which is at least 1)."""
    E = rng.standard_normal((5, 6))
    tokens = np.array([[4, 0, 4, 1]])
    x32, x64 = embed(tokens, E.astype(np.float32)), embed(tokens, E)
    assert x32.dtype == np.float32 and x64.dtype == np.float64
    np.testing.assert_allclose(x32, x64, rtol=0, atol=3 * np.finfo(np.float32).eps * np.abs(x64).max())
    by_hand = E.astype(np.float32)[tokens[0]] * np.float32(math.sqrt(6)) + positional_encoding(4, 6, dtype=np.float32)
    np.testing.assert_array_equal(x32[0], by_hand)


@pytest.mark.parametrize(
    "tokens, error",
    [
        (np.array([[0, 5]]), ValueError),
        (np.array([[-1]]), ValueError),
        (np.array([[0.0]]), TypeError),
        (np.int64(2), TypeError),
    ],
)
def test_embed_rejects_bad_tokens(rng, tokens, error):
    with pytest.raises(error):
        embed(tokens, rng.standard_normal((5, 4)))


def test_output_logits_are_dot_products_with_the_embedding_rows(rng):
    y, E = rng.standard_normal((2, 3, 4)), rng.standard_normal((6, 4))
    logits = output_logits(y, E)
    assert logits.shape == (2, 3, 6)
    assert logits[1, 2, 5] == pytest.approx(sum(y[1, 2, i] * E[5, i] for i in range(4)))


# ------------------------------------------------------------ properties --


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_embedding_gradient_collects_every_position(seed, position):
    """sum over tokens of dE = sqrt(d_model) * sum over positions of d_x, with or without positions."""
    rng = np.random.default_rng(seed)
    E, tokens, d_x = rng.standard_normal((4, 6)), rng.integers(0, 4, (3, 5)), rng.standard_normal((3, 5, 6))
    dE = embed_backward(d_x, tokens, E)
    np.testing.assert_allclose(dE.sum(axis=0), math.sqrt(6) * d_x.sum(axis=(0, 1)), atol=1e-12)
    assert np.all(dE[np.setdiff1d(np.arange(4), tokens)] == 0.0)  # tokens never used get nothing
    assert embed(tokens, E, position).shape == (3, 5, 6)
