"""attn.layers: layer norm, the feed-forward network and the encoder and decoder layers as compositions."""

import math

import numpy as np

from attn.core import causal_mask, padding_mask
from attn.init import (
    init_decoder_layer,
    init_encoder_layer,
    init_feed_forward,
)
from attn.layers import decoder_layer, encoder_layer, feed_forward, layer_norm
from attn.multihead import multi_head_attention

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


def test_layer_norm_and_feed_forward_keep_float32(rng):
    """float32 in, float32 out, with float32 gamma, beta and weights; the float64 result on the same
    values to 1e-5 relative (about 84 float32 eps: each output is a short sum of rounded terms)."""
    x = (rng.standard_normal((2, 3, 6)) * 5 + 2).astype(np.float32)
    gamma, beta = rng.standard_normal(6).astype(np.float32), rng.standard_normal(6).astype(np.float32)
    params = {k: v.astype(np.float32) for k, v in init_feed_forward(rng, 6, 10).items()}
    x64, gamma64, beta64 = x.astype(np.float64), gamma.astype(np.float64), beta.astype(np.float64)
    params64 = {k: v.astype(np.float64) for k, v in params.items()}
    pairs = [
        (layer_norm(x, gamma, beta), layer_norm(x64, gamma64, beta64)),
        (feed_forward(x, params), feed_forward(x64, params64)),
    ]
    for y32, y64 in pairs:
        assert y32.dtype == np.float32
        np.testing.assert_allclose(y32, y64, rtol=1e-5, atol=1e-5 * np.abs(y64).max())


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
