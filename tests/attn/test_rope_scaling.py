"""attn.rope_scaling: interpolation, NTK-aware and YaRN speeds, against the formulas pair by pair."""

import math

import numpy as np
import pytest

import attn


def test_rope_frequencies_are_the_angles_apply_rope_uses(rng):
    x = rng.standard_normal((3, 8))
    np.testing.assert_allclose(
        attn.apply_rope(x, [0, 5, 9]), attn.apply_rope(x, [0, 5, 9], theta=attn.rope_frequencies(8)), atol=0
    )


def test_interpolated_speeds_equal_positions_divided_by_s(rng):
    x = rng.standard_normal((4, 8))
    positions = np.array([0.0, 3.0, 100.0, 4000.0])
    np.testing.assert_allclose(
        attn.apply_rope(x, positions, theta=attn.interpolated_frequencies(8, 4)),
        attn.apply_rope(x, positions / 4),
        rtol=0,
        atol=1e-12,
    )


@pytest.mark.parametrize("d_k, s", [(4, 2), (16, 8), (128, 4)])
def test_ntk_speeds_are_those_of_the_larger_base(d_k, s):
    new_base = 10000.0 * s ** (d_k / (d_k - 2))
    expected = [new_base ** (-2 * i / d_k) for i in range(d_k // 2)]
    got = attn.ntk_frequencies(d_k, s)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert got[0] == 1.0 and got[-1] == pytest.approx(attn.rope_frequencies(d_k)[-1] / s, rel=1e-12)


@pytest.mark.parametrize("d_k, s, L", [(128, 4, 4096), (64, 16, 2048), (8, 2, 64)])
def test_yarn_speeds_pair_by_pair(d_k, s, L):
    got = attn.yarn_frequencies(d_k, s, L)
    for i in range(d_k // 2):
        theta = 10000.0 ** (-2 * i / d_k)
        r = L / (2 * math.pi / theta)
        gamma = 0.0 if r < 1 else 1.0 if r > 32 else (r - 1) / 31
        assert got[i] == pytest.approx((1 - gamma) * theta / s + gamma * theta, rel=1e-12)


def test_yarn_logit_factor_and_refusals():
    assert attn.yarn_logit_factor(1) == 1.0
    assert attn.yarn_logit_factor(math.e) == pytest.approx(1.1)
    for bad in (0.5, -1, "2"):
        with pytest.raises(ValueError):
            attn.interpolated_frequencies(8, bad)
    with pytest.raises(ValueError, match="alpha"):
        attn.yarn_ramp(8, 64, alpha=5, beta=2)
    with pytest.raises(ValueError, match="d_k"):
        attn.ntk_frequencies(2, 2)
    with pytest.raises(ValueError, match="theta"):
        attn.apply_rope(np.ones((2, 4)), theta=np.ones(3))


@pytest.mark.parametrize("d_k", [3, 0, 2.0, "8"])
def test_rope_frequencies_refuse_a_width_that_is_not_an_even_int(d_k):
    with pytest.raises(ValueError, match="d_k"):
        attn.rope_frequencies(d_k)
