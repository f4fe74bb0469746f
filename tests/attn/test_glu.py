"""attn.glu: GELU, SiLU and the GELU and SwiGLU networks against hand values and loops."""

import math

import numpy as np
import pytest

import attn


@pytest.mark.parametrize(
    "x, expected",
    [(0.0, 0.0), (1.0, 0.8413447460685429), (-1.0, -0.15865525393145707), (3.0, 3 * 0.9986501019683699)],
)
def test_gelu_by_hand(x, expected):
    # x * Phi(x) with Phi from a table of the standard normal CDF
    assert attn.gelu(np.array([x]))[0] == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_the_tanh_form_is_close_to_the_exact_one():
    x = np.linspace(-6, 6, 2001)
    gap = np.abs(attn.gelu(x, approximate=True) - attn.gelu(x)).max()
    assert 1e-5 < gap < 1e-3  # an approximation, and a close one


def test_silu_is_x_times_the_logistic_function(rng):
    x = rng.standard_normal(20) * 4
    np.testing.assert_allclose(attn.silu(x), [v / (1 + math.exp(-v)) for v in x], rtol=1e-14)


def test_gelu_network_is_the_relu_one_with_gelu(rng):
    x, params = rng.standard_normal((2, 4, 8)), attn.init_feed_forward(rng, 8, 16)
    hidden = x @ params["W_1"] + params["b_1"]
    expected = np.vectorize(lambda a: a * 0.5 * (1 + math.erf(a / math.sqrt(2))))(hidden) @ params["W_2"]
    np.testing.assert_allclose(attn.gelu_feed_forward(x, params), expected + params["b_2"], atol=1e-12)


def test_swiglu_against_a_loop_over_hidden_units(rng):
    x, params = rng.standard_normal((3, 6)), attn.init_swiglu(rng, 6, 10)
    expected = np.zeros((3, 6))
    for t in range(3):
        for j in range(10):
            a = x[t] @ params["W"][:, j]
            b = x[t] @ params["V"][:, j]
            expected[t] += a / (1 + math.exp(-a)) * b * params["W_2"][j]
    np.testing.assert_allclose(attn.swiglu_feed_forward(x, params), expected, atol=1e-12)


def test_two_thirds_of_d_ff_keeps_the_parameter_count(rng):
    d_model, d_ff = 12, 48
    relu = attn.count_parameters({k: v for k, v in attn.init_feed_forward(rng, d_model, d_ff).items() if "W" in k})
    swiglu = attn.count_parameters(attn.init_swiglu(rng, d_model, 2 * d_ff // 3))
    assert relu == swiglu == 2 * d_model * d_ff


def test_init_refuses_a_bad_generator_and_width():
    with pytest.raises(TypeError, match="Generator"):
        attn.init_swiglu(0, 4, 4)
    with pytest.raises(ValueError, match="d_ff"):
        attn.init_swiglu(np.random.default_rng(0), 4, 0)
