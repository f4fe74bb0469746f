"""attn.optim: the learning-rate schedule (equation 3) and Adam scalar by scalar."""

import math

import numpy as np
import pytest

from attn.optim import adam_step, init_adam, learning_rate


@pytest.mark.parametrize("d_model, warmup", [(512, 4000), (1024, 4000), (32, 100), (7, 1)])
def test_learning_rate_is_equation_3(d_model, warmup):
    for step in (1, 2, warmup // 2 + 1, warmup, warmup + 1, 3 * warmup, 10**6):
        expected = d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)
        assert learning_rate(step, d_model, warmup) == pytest.approx(expected, rel=1e-15)


def test_learning_rate_rises_linearly_peaks_at_warmup_then_decays_as_inverse_sqrt():
    rates = [learning_rate(step, 512) for step in range(1, 12001)]
    assert int(np.argmax(rates)) + 1 == 4000
    assert max(rates) == pytest.approx((512 * 4000) ** -0.5, rel=1e-12)
    assert learning_rate(1000, 512) == pytest.approx(1000 * learning_rate(1, 512), rel=1e-12)
    assert learning_rate(16000, 512) == pytest.approx(learning_rate(4000, 512) / 2, rel=1e-12)


@pytest.mark.parametrize("step", [0, -3, 2.5, True])
def test_learning_rate_rejects_bad_steps(step):
    with pytest.raises((ValueError, TypeError)):
        learning_rate(step, 512)


def adam_by_hand(theta, gradients, lr, beta1=0.9, beta2=0.98, eps=1e-9):
    """Kingma and Ba (2015), Algorithm 1, one scalar at a time."""
    m = v = 0.0
    for t, g in enumerate(gradients, start=1):
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        theta = theta - lr * (m / (1 - beta1**t)) / (math.sqrt(v / (1 - beta2**t)) + eps)
    return theta


def test_adam_matches_the_algorithm_scalar_by_scalar(rng):
    params = {"a": rng.standard_normal((2, 3)), "layers": [{"b": rng.standard_normal(4)}]}
    gradients = [{"a": rng.standard_normal((2, 3)), "layers": [{"b": rng.standard_normal(4)}]} for _ in range(4)]
    state, current = init_adam(params), params
    for g in gradients:
        current, state = adam_step(current, g, state, lr=0.01)
    assert state["t"] == 4
    for index in np.ndindex(2, 3):
        expected = adam_by_hand(params["a"][index], [g["a"][index] for g in gradients], 0.01)
        assert current["a"][index] == pytest.approx(expected, rel=1e-12)
    for i in range(4):
        expected = adam_by_hand(params["layers"][0]["b"][i], [g["layers"][0]["b"][i] for g in gradients], 0.01)
        assert current["layers"][0]["b"][i] == pytest.approx(expected, rel=1e-12)


def test_adam_keeps_the_structure_and_the_dtype(rng):
    """Nested dicts and lists, an empty list among them, come back with the same structure, each
    array in its own dtype (float32 weights stay float32), with the by-hand values."""
    params = {"w": rng.standard_normal(3).astype(np.float32), "empty": [], "deep": [[rng.standard_normal(2)]]}
    grads = {"w": rng.standard_normal(3).astype(np.float32), "empty": [], "deep": [[rng.standard_normal(2)]]}
    new, state = adam_step(params, grads, init_adam(params), lr=0.01)
    assert new["empty"] == [] and state["m"]["empty"] == [] and state["v"]["empty"] == []
    assert new["w"].dtype == state["m"]["w"].dtype == state["v"]["w"].dtype == np.float32
    assert new["deep"][0][0].dtype == np.float64
    for i in range(2):
        expected = adam_by_hand(params["deep"][0][0][i], [grads["deep"][0][0][i]], 0.01)
        assert new["deep"][0][0][i] == pytest.approx(expected, rel=1e-12)
    for i in range(3):  # float32 arithmetic: to 1e-6 of the float64 algorithm
        expected = adam_by_hand(float(params["w"][i]), [float(grads["w"][i])], 0.01)
        assert float(new["w"][i]) == pytest.approx(expected, rel=1e-6)


def test_adams_first_step_moves_every_parameter_by_the_learning_rate(rng):
    """After bias correction, m / sqrt(v) = g / |g| on step 1: each entry moves by lr, against its gradient."""
    params = {"w": rng.standard_normal(5)}
    grads = {"w": rng.standard_normal(5)}
    new, _ = adam_step(params, grads, init_adam(params), lr=0.003)
    np.testing.assert_allclose(new["w"] - params["w"], -0.003 * np.sign(grads["w"]), rtol=1e-6)


def test_adam_writes_nothing_it_was_given(rng):
    params = {"w": rng.standard_normal(3)}
    grads = {"w": rng.standard_normal(3)}
    state = init_adam(params)
    for array in (params["w"], grads["w"], state["m"]["w"], state["v"]["w"]):
        array.flags.writeable = False
    new, new_state = adam_step(params, grads, state, lr=0.1)
    assert new["w"] is not params["w"] and state["t"] == 0 and new_state["t"] == 1


@pytest.mark.parametrize("grads", [{"x": np.ones(3)}, {"w": np.ones(4)}, {"w": [np.ones(3)]}])
def test_adam_rejects_gradients_of_another_structure(grads):
    params = {"w": np.ones(3)}
    with pytest.raises(ValueError):
        adam_step(params, grads, init_adam(params), lr=0.1)


def test_init_adam_starts_at_zero(rng):
    params = {"w": rng.standard_normal((2, 2)), "list": [rng.standard_normal(3)]}
    state = init_adam(params)
    assert state["t"] == 0
    assert np.all(state["m"]["w"] == 0) and np.all(state["v"]["list"][0] == 0)
    assert state["m"]["list"][0].shape == (3,)
