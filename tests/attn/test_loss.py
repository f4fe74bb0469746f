"""attn.loss: log-softmax, label smoothing and the cross-entropy against loops and its gradient's properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn.loss import cross_entropy, cross_entropy_backward, log_softmax, smoothed_targets

# ------------------------------------------------------------------ loss --


def test_log_softmax_is_stable_and_normalised(rng):
    logits = np.array([[1e4, 0.0, -1e4], [3.0, 1.0, 0.2]])
    out = log_softmax(logits)
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out[0], [0.0, -1e4, -2e4])
    np.testing.assert_allclose(out[1], np.log(np.exp(logits[1]) / np.exp(logits[1]).sum()), atol=1e-15)
    np.testing.assert_allclose(log_softmax(logits[1] + 1234.5), out[1], atol=1e-12)  # shift invariance
    np.testing.assert_allclose(np.exp(log_softmax(rng.standard_normal((4, 7)) * 50)).sum(axis=-1), 1.0)


@pytest.mark.parametrize("eps_ls", [0.0, 0.1, 1.0])
def test_smoothed_targets(eps_ls):
    q = smoothed_targets(np.array([[2, 0]]), 4, eps_ls)
    np.testing.assert_allclose(q.sum(axis=-1), 1.0)
    np.testing.assert_allclose(q[0, 0], [eps_ls / 4] * 2 + [1 - eps_ls + eps_ls / 4] + [eps_ls / 4])


def test_smoothed_targets_rejects_a_bad_eps():
    with pytest.raises(ValueError):
        smoothed_targets(np.array([1]), 3, 1.5)
    with pytest.raises(TypeError, match="dtype"):
        smoothed_targets(np.array([1]), 3, 0.1, dtype=np.int32)


@pytest.mark.parametrize("eps_ls, pad", [(0.0, None), (0.1, None), (0.1, 0), (0.3, 2)])
def test_cross_entropy_by_a_loop(rng, eps_ls, pad):
    logits = rng.standard_normal((2, 4, 5)) * 3
    targets = rng.integers(0, 5, (2, 4))
    total, count = 0.0, 0
    for b in range(2):
        for i in range(4):
            if pad is not None and targets[b, i] == pad:
                continue
            p = np.exp(logits[b, i]) / np.exp(logits[b, i]).sum()
            q = [(1 - eps_ls) * (k == targets[b, i]) + eps_ls / 5 for k in range(5)]
            total -= sum(q[k] * math.log(p[k]) for k in range(5))
            count += 1
    assert cross_entropy(logits, targets, eps_ls, pad) == pytest.approx(total / max(count, 1), rel=1e-12)


def test_padding_positions_do_not_count(rng):
    logits = rng.standard_normal((2, 3, 4))
    targets = np.array([[1, 2, 0], [3, 0, 0]])
    changed = logits.copy()
    changed[targets == 0] = rng.standard_normal(4) * 100
    assert cross_entropy(changed, targets, 0.1, pad=0) == cross_entropy(logits, targets, 0.1, pad=0)
    assert cross_entropy(logits, np.zeros((2, 3), dtype=int), 0.1, pad=0) == 0.0  # nothing to predict


def test_smoothed_loss_is_lowest_at_the_smoothed_targets(rng):
    """Gibbs: -sum q log p >= -sum q log q, with equality only at p = q."""
    targets = np.array([[2, 0, 1]])
    q = smoothed_targets(targets, 4, 0.1)
    entropy = float(-(q * np.log(q)).sum(axis=-1).mean())
    assert cross_entropy(np.log(q), targets, 0.1) == pytest.approx(entropy, rel=1e-12)
    for _ in range(20):
        assert cross_entropy(np.log(q) + rng.standard_normal(q.shape) * 0.3, targets, 0.1) > entropy


def test_float32_log_softmax_stays_float32(rng):
    """Shift, exp, sum and log all in float32. Each entry is the float64 one within 1e-5 absolute:
    entries reach about 12 here, where one float32 ulp is 9.5e-7, and the worst seen is 9.1e-7."""
    logits = rng.standard_normal((3, 4, 9)) * 3
    out32 = log_softmax(logits.astype(np.float32))
    assert out32.dtype == np.float32
    np.testing.assert_allclose(out32, log_softmax(logits.astype(np.float32).astype(np.float64)), rtol=0, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_smoothed_targets_have_the_dtype_asked_for(dtype):
    q = smoothed_targets(np.array([[2, 0]]), 4, 0.1, dtype)
    assert q.dtype == dtype
    np.testing.assert_allclose(q[0, 1], [0.925, 0.025, 0.025, 0.025], rtol=np.finfo(dtype).eps)


@pytest.mark.parametrize("eps_ls, pad", [(0.0, None), (0.1, None), (0.1, 0)])
def test_the_gradient_of_float32_logits_is_float32(rng, eps_ls, pad):
    """p - q by a loop in float64 is the reference: float32 logits give a float32 gradient that
    agrees with it to 1e-6 (entries lie in [-1, 1]; float32's eps is 1.2e-7), and a loss to 1e-6."""
    logits = rng.standard_normal((2, 4, 5)) * 3
    targets = rng.integers(0, 5, (2, 4))
    real = [(b, i) for b in range(2) for i in range(4) if pad is None or targets[b, i] != pad]
    expected = np.zeros_like(logits)
    for b, i in real:
        p = np.exp(logits[b, i]) / np.exp(logits[b, i]).sum()
        q = np.array([(1 - eps_ls) * (k == targets[b, i]) + eps_ls / 5 for k in range(5)])
        expected[b, i] = (p - q) / len(real)
    d32 = cross_entropy_backward(logits.astype(np.float32), targets, eps_ls, pad)
    assert d32.dtype == np.float32 and cross_entropy_backward(logits, targets, eps_ls, pad).dtype == np.float64
    np.testing.assert_allclose(d32, expected, rtol=0, atol=1e-6)
    loss32 = cross_entropy(logits.astype(np.float32), targets, eps_ls, pad)
    assert loss32 == pytest.approx(cross_entropy(logits, targets, eps_ls, pad), rel=1e-6)


def test_cross_entropy_rejects_mismatched_shapes(rng):
    with pytest.raises(ValueError):
        cross_entropy(rng.standard_normal((2, 3, 4)), np.zeros((2, 4), dtype=int))
    with pytest.raises(TypeError):
        cross_entropy(rng.standard_normal((2, 3, 4)), np.zeros((2, 3)))


# ------------------------------------------------------------ properties --


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.1, 0.5]))
def test_loss_gradient_rows_sum_to_zero_and_vanish_at_padding(seed, eps_ls):
    rng = np.random.default_rng(seed)
    targets = rng.integers(0, 5, (3, 4))
    logits = rng.standard_normal((3, 4, 5)) * 4
    d = cross_entropy_backward(logits, targets, eps_ls, pad=0)
    np.testing.assert_allclose(d.sum(axis=-1), 0.0, atol=1e-12)  # p and q both sum to 1
    assert np.all(d[targets == 0] == 0.0)
