"""attn.init: shapes, reproducibility and the Glorot scale of the random parameters."""

import math

import numpy as np
import pytest

from attn.init import (
    init_attention,
    init_decoder_layer,
    init_encoder_layer,
    init_feed_forward,
    init_layer_norm,
    init_multi_head,
)

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
