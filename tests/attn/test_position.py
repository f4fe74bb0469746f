"""attn.position: the sinusoidal encodings against the formula and the paper's rows."""

import math

import numpy as np
import pytest

import attn
from attn.position import position_rows, positional_encoding

# -------------------------------------------------------------- position --


def test_positional_encoding_rows_for_d_model_8():
    pe = positional_encoding(2, 8)
    assert pe.shape == (2, 8)
    assert pe[0].round(3).tolist() == [0, 1, 0, 1, 0, 1, 0, 1]
    assert pe[1].round(3).tolist() == [0.841, 0.540, 0.100, 0.995, 0.010, 1.000, 0.001, 1.000]


@pytest.mark.parametrize("n, d_model, base", [(1, 1, 10000.0), (5, 3, 10000.0), (50, 16, 10000.0), (7, 6, 100.0)])
def test_positional_encoding_formula(n, d_model, base):
    pe = positional_encoding(n, d_model, base)
    assert pe.shape == (n, d_model)
    for pos in range(n):
        for col in range(d_model):
            angle = pos / base ** ((col - col % 2) / d_model)
            assert pe[pos, col] == pytest.approx(math.sin(angle) if col % 2 == 0 else math.cos(angle), abs=1e-12)


def test_positional_encoding_rejects_bad_arguments():
    with pytest.raises(ValueError):
        positional_encoding(-1, 8)
    with pytest.raises(ValueError):
        positional_encoding(4, 8, base=0.0)


# ------------------------------------ the decoder-only model, generating --


def test_position_rows_are_rows_of_the_encoding():
    for d_model in (6, 7):
        np.testing.assert_allclose(
            position_rows(5, 3, d_model), attn.positional_encoding(8, d_model)[5:], rtol=0, atol=1e-15
        )
