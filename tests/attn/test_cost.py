"""attn.cost: FLOP and byte counts against counts by hand and loops over the products."""

import numpy as np
import pytest

from attn.cost import (
    attention_crossover,
    attention_flops,
    attention_layer_flops,
    attention_weights_bytes,
    projection_flops,
    recurrent_flops,
    score_block_bytes,
    score_matrix_bytes,
    sequential_steps,
)


def matmul_flops(a_shape, b_shape):
    """FLOPs of one (m, k) @ (k, p) product, 2 per multiply-add, counted from the shapes."""
    (m, k), (k2, p) = a_shape, b_shape
    assert k == k2
    return 2 * m * k * p


@pytest.mark.parametrize("n, d", [(1, 1), (3, 4), (4, 8), (32, 512), (2048, 512)])
def test_projection_flops_count_four_products(n, d):
    by_shapes = 4 * matmul_flops((n, d), (d, d))  # X W^Q, X W^K, X W^V, Concat(heads) W^O
    assert projection_flops(n, d) == by_shapes == 8 * n * d * d
    assert isinstance(projection_flops(n, d), int)


@pytest.mark.parametrize("h", [1, 2, 4, 8])
def test_projection_flops_do_not_depend_on_the_number_of_heads(h):
    n, d = 16, 64
    d_k = d // h
    per_head = 3 * h * matmul_flops((n, d), (d, d_k))  # each head's W_q, W_k, W_v
    output = matmul_flops((n, h * d_k), (h * d_k, d))
    assert per_head + output == projection_flops(n, d)


@pytest.mark.parametrize("n, d", [(1, 1), (3, 4), (512, 512), (2048, 512)])
def test_attention_layer_is_projections_plus_score_and_mix(n, d):
    score_and_mix = matmul_flops((n, d), (d, n)) + matmul_flops((n, n), (n, d))
    assert attention_layer_flops(n, d) == projection_flops(n, d) + score_and_mix
    assert attention_layer_flops(n, d) == 8 * n * d**2 + 4 * n**2 * d


@pytest.mark.parametrize("d", [1, 2, 64, 512])
def test_the_whole_attention_layer_costs_more_than_an_elman_layer_at_every_n(d):
    for n in range(1, 4 * d + 2):
        assert attention_layer_flops(n, d) > recurrent_flops(n, d)
        # the ratio is 2 + n / d, exactly
        assert attention_layer_flops(n, d) * d == (2 * d + n) * recurrent_flops(n, d)
        assert (attention_flops(n, d) < recurrent_flops(n, d)) == (n < d)


def test_attention_weights_bytes_by_hand():
    # the base model's 8 heads, 32 sequences, 6 layers, n = 512, float32
    assert attention_weights_bytes(512, 8, 32, 6, itemsize=4) == 8 * 32 * 6 * 512 * 512 * 4 == 1536 * 2**20
    assert attention_weights_bytes(7, 1, 1, 1) == score_matrix_bytes(7) == 7 * 7 * 8
    assert attention_weights_bytes(0, 8, 32, 6) == 0


def test_attention_weights_bytes_grows_with_each_factor():
    base = attention_weights_bytes(64, 2, 3, 4, itemsize=2)
    assert attention_weights_bytes(128, 2, 3, 4, itemsize=2) == 4 * base
    assert attention_weights_bytes(64, 4, 3, 4, itemsize=2) == 2 * base
    assert attention_weights_bytes(64, 2, 6, 4, itemsize=2) == 2 * base
    assert attention_weights_bytes(64, 2, 3, 8, itemsize=2) == 2 * base
    assert attention_weights_bytes(64, 2, 3, 4, itemsize=4) == 2 * base


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (2.5, TypeError), ("8", TypeError), (True, TypeError)])
@pytest.mark.parametrize("position", range(4))
def test_attention_weights_bytes_rejects_bad_counts(bad, error, position):
    args = [16, 2, 3, 4]
    args[position] = bad
    with pytest.raises(error):
        attention_weights_bytes(*args)


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (2.5, TypeError), (None, TypeError)])
def test_layer_counts_reject_bad_numbers(bad, error):
    for function in (projection_flops, attention_layer_flops):
        with pytest.raises(error):
            function(bad, 4)
        with pytest.raises(error):
            function(4, bad)


def test_layer_counts_accept_numpy_ints():
    assert attention_layer_flops(np.int64(3), np.int32(4)) == 8 * 3 * 16 + 4 * 9 * 4
    assert attention_weights_bytes(np.int64(2), np.int8(1), 1, 1, itemsize=np.int16(4)) == 16


# ------------------------------------------------------------------ cost --


@pytest.mark.parametrize(
    "n, d, attention, recurrent",
    [(1, 1, 4, 4), (3, 4, 144, 192), (64, 64, 4 * 64**3, 4 * 64**3), (512, 64, 4 * 512 * 512 * 64, 4 * 512 * 64 * 64)],
)
def test_flops(n, d, attention, recurrent):
    assert attention_flops(n, d) == attention
    assert recurrent_flops(n, d) == recurrent
    assert isinstance(attention_flops(n, d), int) and isinstance(recurrent_flops(n, d), int)


@pytest.mark.parametrize("d", [1, 2, 64, 512, 1000])
def test_attention_is_cheaper_exactly_when_n_below_d(d):
    assert attention_crossover(d) == d
    for n in range(1, 2 * d + 2, max(1, d // 16)):
        assert (attention_flops(n, d) < recurrent_flops(n, d)) == (n < d)
        assert (attention_flops(n, d) == recurrent_flops(n, d)) == (n == d)


def test_sequential_steps():
    assert sequential_steps(100, "attention") == 1
    assert sequential_steps(100, "recurrent") == 100
    with pytest.raises(ValueError):
        sequential_steps(3, "convolution")


def test_memory_bytes():
    assert score_matrix_bytes(4096) == 128 * 2**20
    assert score_matrix_bytes(4096, itemsize=4) == 64 * 2**20
    assert score_block_bytes(256, 1024) == 2 * 2**20
    assert score_block_bytes(256, 1024, itemsize=4) == 2**20


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (2.5, TypeError), ("8", TypeError), (True, TypeError)])
def test_cost_rejects_bad_numbers(bad, error):
    with pytest.raises(error):
        attention_flops(bad, 4)
    with pytest.raises(error):
        score_matrix_bytes(bad)


def test_cost_accepts_numpy_ints():
    assert attention_flops(np.int64(3), np.int32(4)) == 144
