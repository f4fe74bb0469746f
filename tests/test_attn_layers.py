"""attn.position, attn.layers, attn.init, attn.params and attn.cost."""

import math

import numpy as np
import pytest

from attn.core import causal_mask, padding_mask
from attn.cost import (
    attention_crossover,
    attention_flops,
    recurrent_flops,
    score_block_bytes,
    score_matrix_bytes,
    sequential_steps,
)
from attn.init import (
    init_attention,
    init_decoder_layer,
    init_encoder_layer,
    init_feed_forward,
    init_layer_norm,
    init_multi_head,
)
from attn.layers import decoder_layer, encoder_layer, feed_forward, layer_norm
from attn.multihead import multi_head_attention
from attn.params import count_parameters
from attn.position import positional_encoding

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


# ---------------------------------------------------------------- layers --


def test_layer_norm(rng):
    x = rng.standard_normal((3, 4, 6)) * 5 + 2
    y = layer_norm(x)
    np.testing.assert_allclose(y.mean(axis=-1), 0.0, atol=1e-12)
    np.testing.assert_allclose(y.var(axis=-1), 1.0, rtol=1e-4)  # eps = 1e-5 shrinks it a little
    gamma, beta = rng.standard_normal(6), rng.standard_normal(6)
    np.testing.assert_allclose(layer_norm(x, gamma, beta), y * gamma + beta, atol=1e-12)
    row = x[1, 2]
    mean = sum(row) / 6
    var = sum((r - mean) ** 2 for r in row) / 6
    np.testing.assert_allclose(y[1, 2], [(r - mean) / math.sqrt(var + 1e-5) for r in row], atol=1e-12)


def test_layer_norm_integer_input():
    assert layer_norm(np.array([[1, 2, 3]])).dtype == np.float64


def test_feed_forward(rng):
    params = init_feed_forward(rng, 4, 10)
    params["b_1"] = rng.standard_normal(10)
    params["b_2"] = rng.standard_normal(4)
    x = rng.standard_normal((2, 3, 4))
    out = feed_forward(x, params)
    assert out.shape == (2, 3, 4)
    for b in range(2):
        for i in range(3):
            hidden = [max(0.0, v) for v in x[b, i] @ params["W_1"] + params["b_1"]]
            np.testing.assert_allclose(out[b, i], np.array(hidden) @ params["W_2"] + params["b_2"], atol=1e-12)


def test_encoder_layer_is_post_norm_composition(rng):
    params = init_encoder_layer(rng, 8, 32)
    x = rng.standard_normal((2, 5, 8))
    a = layer_norm(x + multi_head_attention(x, x, params["self_attn"], 2), **params["norm1"])
    expected = layer_norm(a + feed_forward(a, params["ffn"]), **params["norm2"])
    np.testing.assert_allclose(encoder_layer(x, params, 2), expected, atol=1e-12)


def test_encoder_layer_padding_mask_hides_padding(rng):
    params = init_encoder_layer(rng, 8, 16)
    x = rng.standard_normal((2, 6, 8))
    mask = padding_mask(np.array([6, 4]), 6)
    out = encoder_layer(x, params, 4, mask)
    changed = x.copy()
    changed[1, 4:] = 50.0
    np.testing.assert_allclose(encoder_layer(changed, params, 4, mask)[1, :4], out[1, :4], atol=1e-12)


def test_decoder_layer_composition(rng):
    params = init_decoder_layer(rng, 8, 16)
    y, memory = rng.standard_normal((5, 8)), rng.standard_normal((7, 8))
    a = layer_norm(y + multi_head_attention(y, y, params["self_attn"], 2, causal_mask(5)), **params["norm1"])
    b = layer_norm(a + multi_head_attention(a, memory, params["cross_attn"], 2), **params["norm2"])
    expected = layer_norm(b + feed_forward(b, params["ffn"]), **params["norm3"])
    np.testing.assert_allclose(decoder_layer(y, memory, params, 2), expected, atol=1e-12)


def test_decoder_layer_is_causal_by_default(rng):
    params = init_decoder_layer(rng, 8, 16)
    y, memory = rng.standard_normal((2, 6, 8)), rng.standard_normal((2, 4, 8))
    out = decoder_layer(y, memory, params, 2)
    changed = y.copy()
    changed[:, 3:] += 7.0  # the future of positions 0..2
    out_changed = decoder_layer(changed, memory, params, 2)
    np.testing.assert_allclose(out_changed[:, :3], out[:, :3], atol=1e-12)
    everything = np.ones((6, 6), dtype=bool)
    assert not np.allclose(decoder_layer(changed, memory, params, 2, self_mask=everything)[:, :3], out[:, :3])


def test_decoder_layer_memory_mask(rng):
    params = init_decoder_layer(rng, 8, 16)
    y, memory = rng.standard_normal((2, 3, 8)), rng.standard_normal((2, 5, 8))
    memory_mask = padding_mask(np.array([5, 2]), 5)
    out = decoder_layer(y, memory, params, 4, memory_mask=memory_mask)
    changed = memory.copy()
    changed[1, 2:] = -30.0
    np.testing.assert_allclose(decoder_layer(y, changed, params, 4, memory_mask=memory_mask), out, atol=1e-12)


# ------------------------------------------------------------------ init --


def test_init_shapes(rng):
    head = init_attention(rng, 8, d_k=4)
    assert {k: v.shape for k, v in head.items()} == {"W_q": (8, 4), "W_k": (8, 4), "W_v": (8, 4)}
    assert init_attention(rng, 6)["W_v"].shape == (6, 6)
    assert init_attention(rng, 6, d_k=2, d_v=3)["W_v"].shape == (6, 3)
    assert all(w.shape == (8, 8) for w in init_multi_head(rng, 8).values())
    assert set(init_multi_head(rng, 8)) == {"W_q", "W_k", "W_v", "W_o"}
    ffn = init_feed_forward(rng, 8, 32)
    assert {k: v.shape for k, v in ffn.items()} == {"W_1": (8, 32), "b_1": (32,), "W_2": (32, 8), "b_2": (8,)}
    norm = init_layer_norm(8)
    assert np.all(norm["gamma"] == 1) and np.all(norm["beta"] == 0)
    assert set(init_encoder_layer(rng, 8, 32)) == {"self_attn", "norm1", "ffn", "norm2"}
    assert set(init_decoder_layer(rng, 8, 32)) == {"self_attn", "norm1", "cross_attn", "norm2", "ffn", "norm3"}


def test_init_is_reproducible_and_glorot_scaled():
    a = init_multi_head(np.random.default_rng(7), 64)
    b = init_multi_head(np.random.default_rng(7), 64)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])
    w = init_feed_forward(np.random.default_rng(1), 200, 800)["W_1"]
    assert w.std() == pytest.approx(math.sqrt(2 / 1000), rel=0.02)
    assert abs(w.mean()) < 0.01 * math.sqrt(2 / 1000) * 10


@pytest.mark.parametrize("bad", [None, 0, np.random.RandomState(0), "rng"])
@pytest.mark.parametrize(
    "init",
    [
        lambda r: init_attention(r, 4),
        lambda r: init_multi_head(r, 4),
        lambda r: init_feed_forward(r, 4, 8),
        lambda r: init_encoder_layer(r, 4, 8),
        lambda r: init_decoder_layer(r, 4, 8),
    ],
)
def test_init_rejects_anything_but_a_generator(bad, init):
    with pytest.raises(TypeError):
        init(bad)


# ---------------------------------------------------------------- params --


def test_count_parameters_toy_heads(rng):
    one_full_width = init_multi_head(rng, 8)  # W_q, W_k, W_v, W_o: 4 * 8 * 8
    assert count_parameters(one_full_width) == 256
    two_heads = {"heads": [init_attention(rng, 8, d_k=4) for _ in range(2)], "W_o": rng.standard_normal((8, 8))}
    assert count_parameters(two_heads) == 2 * 3 * 8 * 4 + 8 * 8 == 256


def test_count_parameters_layers(rng):
    d_model, d_ff = 8, 32
    attention = 4 * d_model * d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    norm = 2 * d_model
    assert count_parameters(init_encoder_layer(rng, d_model, d_ff)) == attention + ffn + 2 * norm
    assert count_parameters(init_decoder_layer(rng, d_model, d_ff)) == 2 * attention + ffn + 3 * norm
    # the paper's base model, d_model = 512, d_ff = 2048 (no attention biases here):
    # 4 * 512^2 + (2 * 512 * 2048 + 2048 + 512) + 2 * (2 * 512) = 1_048_576 + 2_099_712 + 2_048
    assert count_parameters(init_encoder_layer(rng, 512, 2048)) == 3_150_336


def test_count_parameters_nesting_and_errors():
    assert count_parameters({"a": (np.ones(3), [np.ones((2, 2))]), "b": np.float64(1.0)}) == 8
    assert count_parameters([]) == 0
    with pytest.raises(TypeError):
        count_parameters({"a": 1.0})


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
