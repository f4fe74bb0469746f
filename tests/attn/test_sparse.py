"""attn.sparse: the Sparse Transformer's strided and fixed patterns, against their set definitions."""

import numpy as np
import pytest

import attn


def strided_by_sets(n, stride):
    """Child et al. (2019), section 4.3: A(1) the last l positions, A(2) every l-th back, causal."""
    mask = np.zeros((n, n), dtype=bool)
    for i in range(n):
        local = {j for j in range(n) if 0 <= i - j < stride}
        strided = {j for j in range(i + 1) if (i - j) % stride == 0}
        for j in local | strided:
            mask[i, j] = True
    return mask


def fixed_by_sets(n, stride, c):
    mask = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(i + 1):
            same_block = j // stride == i // stride
            summary = j % stride in range(stride - c, stride)
            mask[i, j] = same_block or summary
    return mask


@pytest.mark.parametrize("n, stride", [(1, 1), (10, 1), (10, 3), (16, 4), (7, 9)])
def test_strided_mask_and_its_pair_count(n, stride):
    expected = strided_by_sets(n, stride)
    np.testing.assert_array_equal(attn.strided_mask(n, stride), expected)
    assert attn.strided_pairs(n, stride) == int(expected.sum())


@pytest.mark.parametrize("n, stride, c", [(10, 3, 1), (16, 4, 2), (9, 3, 3), (5, 1, 1)])
def test_fixed_mask(n, stride, c):
    np.testing.assert_array_equal(attn.fixed_mask(n, stride, c), fixed_by_sets(n, stride, c))


@pytest.mark.parametrize("n, stride", [(16, 4), (25, 5), (30, 5)])
def test_two_strided_layers_connect_every_earlier_position(n, stride):
    reach = attn.receptive_field(attn.strided_mask(n, stride), 2)
    np.testing.assert_array_equal(reach, attn.causal_mask(n))


def test_fixed_mask_refuses_c_beyond_the_stride():
    with pytest.raises(ValueError, match="at most stride"):
        attn.fixed_mask(8, 2, c=3)


@pytest.mark.parametrize(
    "call", [lambda: attn.strided_mask(4, 0), lambda: attn.strided_pairs(4, -1), lambda: attn.fixed_mask(4, 2, c=0)]
)
def test_patterns_refuse_a_stride_or_c_below_one(call):
    with pytest.raises(ValueError):
        call()
