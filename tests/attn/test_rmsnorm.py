"""attn.rmsnorm: RMSNorm against a loop and a hand calculation, its backward against finite differences."""

import math

import numpy as np
import pytest

import attn


def rms_norm_loop(x, gamma, eps):
    """RMSNorm written out one vector at a time (Zhang and Sennrich 2019, equation 4)."""
    out = np.empty_like(x, dtype=np.float64)
    for index in np.ndindex(x.shape[:-1]):
        row = x[index]
        rms = math.sqrt(sum(value * value for value in row) / len(row) + eps)
        out[index] = [gamma[i] * row[i] / rms for i in range(len(row))]
    return out


def test_matches_the_loop(rng):
    x, gamma = rng.standard_normal((2, 3, 6)), rng.standard_normal(6)
    np.testing.assert_allclose(attn.rms_norm(x, gamma, eps=1e-5), rms_norm_loop(x, gamma, 1e-5), rtol=1e-13)


def test_by_hand():
    # (3, 4): mean of squares 12.5, so each feature is divided by sqrt(12.5)
    np.testing.assert_allclose(attn.rms_norm(np.array([3.0, 4.0]), eps=1e-300), [3 / 12.5**0.5, 4 / 12.5**0.5])


def test_equals_layer_norm_on_centred_rows_and_not_otherwise(rng):
    x = rng.standard_normal((4, 16))
    centred = x - x.mean(axis=-1, keepdims=True)
    np.testing.assert_allclose(attn.rms_norm(centred, eps=1e-5), attn.layer_norm(centred, eps=1e-5), atol=1e-12)
    assert np.abs(attn.rms_norm(x + 3.0, eps=1e-5) - attn.layer_norm(x + 3.0, eps=1e-5)).max() > 0.5


def test_output_has_unit_root_mean_square(rng):
    y = attn.rms_norm(rng.standard_normal((5, 32)) * 7.0, eps=1e-12)
    np.testing.assert_allclose(np.sqrt((y * y).mean(axis=-1)), 1.0, rtol=1e-12)


@pytest.mark.parametrize("gamma", [None, "random"])
def test_backward_against_finite_differences(rng, central_differences, relative_error, gamma):
    x = rng.standard_normal((2, 3, 5))
    g = None if gamma is None else rng.standard_normal(5)
    r = rng.standard_normal((2, 3, 5))
    dx, grads = attn.rms_norm_backward(r, x, g, eps=1e-5)

    def loss():
        return float((attn.rms_norm(x, g, eps=1e-5) * r).sum())

    assert relative_error(dx, central_differences(loss, x)) < 1e-7
    if g is not None:
        assert relative_error(grads["gamma"], central_differences(loss, g)) < 1e-7


def test_integers_become_floats_and_the_input_is_not_written():
    x = np.array([[1, 2, 3]])
    y = attn.rms_norm(x)
    assert y.dtype == np.float64 and x.tolist() == [[1, 2, 3]]


@pytest.mark.parametrize(
    "args, error, message",
    [
        ((np.ones(3) + 1j,), TypeError, "real numbers"),
        ((np.float64(1.0),), ValueError, "at least 1 axes"),
        ((np.ones(3), None, 0.0), ValueError, "eps"),
    ],
)
def test_hostile_input_is_refused(args, error, message):
    with pytest.raises(error, match=message):
        attn.rms_norm(*args)


def test_backward_refuses_mismatched_shapes():
    with pytest.raises(ValueError, match=r"d_y has shape \(2, 3\) but x has \(3, 3\)"):
        attn.rms_norm_backward(np.ones((2, 3)), np.ones((3, 3)))
