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


# ----------------------------------------------------------------- dtype --


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("n, d_model", [(1, 1), (9, 7), (40, 16)])
def test_the_encoding_has_the_dtype_it_is_asked_for(dtype, n, d_model):
    """Each entry is the float64 formula (a loop, as above) rounded once to dtype: within half a unit
    in the last place of dtype, plus 1e-12 for the float64 angle."""
    pe = positional_encoding(n, d_model, dtype=dtype)
    assert pe.dtype == dtype and pe.shape == (n, d_model)
    half_ulp = np.finfo(dtype).eps / 2
    for pos in range(n):
        for col in range(d_model):
            angle = pos / 10000.0 ** ((col - col % 2) / d_model)
            exact = math.sin(angle) if col % 2 == 0 else math.cos(angle)
            assert abs(float(pe[pos, col]) - exact) <= half_ulp * abs(exact) + 1e-12


def test_float32_rows_agree_with_float64_rows():
    """position_rows, as the cached step uses it: float32 rows are the float64 rows to 6e-8 (half
    float32's eps at 1; every entry lies in [-1, 1])."""
    rows32, rows64 = position_rows(5, 3, 7, dtype=np.float32), position_rows(5, 3, 7)
    assert rows32.dtype == np.float32 and rows64.dtype == np.float64
    np.testing.assert_allclose(rows32, rows64, rtol=0, atol=6e-8)
    np.testing.assert_array_equal(rows32, positional_encoding(8, 7, dtype=np.float32)[5:])


@pytest.mark.parametrize("dtype", [np.int64, bool, np.complex128, "not a dtype"])
def test_the_encoding_refuses_a_dtype_that_is_not_floating(dtype):
    with pytest.raises(TypeError, match="dtype"):
        positional_encoding(4, 8, dtype=dtype)
