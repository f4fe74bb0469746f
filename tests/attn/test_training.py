"""attn.training: dropout, the training layers without dropout are the inference layers, and float32
layers stay float32."""

import numpy as np
import pytest

from attn.core import causal_mask
from attn.init import init_decoder_layer, init_encoder_layer
from attn.layers import decoder_layer, encoder_layer
from attn.training import (
    decoder_layer_backward,
    decoder_layer_forward,
    dropout,
    dropout_backward,
    encoder_layer_backward,
    encoder_layer_forward,
)

# --------------------------------------------------------------- dropout --


def test_dropout_keeps_the_expected_value():
    x = np.ones((200, 500))
    y, keep = dropout(x, 0.1, np.random.default_rng(3))
    assert keep.mean() == pytest.approx(0.9, abs=0.005)  # 100,000 draws: the standard error is 0.00095
    assert y.mean() == pytest.approx(1.0, abs=0.006)
    assert set(np.unique(y)) == {0.0, 1 / 0.9}


@pytest.mark.parametrize("p_drop, rng", [(0.0, np.random.default_rng(0)), (0.5, None)])
def test_dropout_off(p_drop, rng):
    x = np.arange(6.0)
    y, keep = dropout(x, p_drop, rng)
    assert y is x and keep is None


@pytest.mark.parametrize("p_drop", [1.0, -0.1])
def test_dropout_rejects_bad_rates(p_drop):
    with pytest.raises(ValueError):
        dropout(np.ones(3), p_drop, np.random.default_rng(0))


def test_float32_dropout_draws_the_float64_mask():
    """The mask is drawn in float64 whatever x's dtype, so one seed drops the same entries in float32
    and float64; the survivors are scaled in x's dtype: x, 1 - p_drop and the quotient are each rounded
    to float32 once (half an eps each), so y is the float64 one within 2 float32 eps (relative)."""
    x = np.random.default_rng(1).standard_normal((4, 5))
    y32, keep32 = dropout(x.astype(np.float32), 0.3, np.random.default_rng(2))
    y64, keep64 = dropout(x, 0.3, np.random.default_rng(2))
    assert y32.dtype == np.float32 and keep32.dtype == bool
    np.testing.assert_array_equal(keep32, keep64)
    np.testing.assert_allclose(y32, y64, rtol=2 * np.finfo(np.float32).eps, atol=0)
    assert dropout_backward(np.ones((4, 5), np.float32), keep32, 0.3).dtype == np.float32


# ----------------------------------------------------------- whole model --


def test_training_layers_without_dropout_are_the_inference_layers(rng):
    x, memory = rng.standard_normal((2, 4, 8)), rng.standard_normal((2, 5, 8))
    enc, dec = init_encoder_layer(rng, 8, 16), init_decoder_layer(rng, 8, 16)
    mask = rng.random((2, 1, 4)) < 0.8
    np.testing.assert_allclose(encoder_layer_forward(x, enc, 2, mask)[0], encoder_layer(x, enc, 2, mask), atol=1e-12)
    np.testing.assert_allclose(
        decoder_layer_forward(x, memory, dec, 2, causal_mask(4))[0], decoder_layer(x, memory, dec, 2), atol=1e-12
    )


def _arrays(tree):
    """Every array of a cache or gradient tree (dicts of arrays, masks and None)."""
    if isinstance(tree, dict):
        return [a for value in tree.values() for a in _arrays(value)]
    return [] if tree is None else [tree]


def test_float32_layers_keep_float32_in_every_cache_and_gradient(rng):
    """Forward, backward and what the forward keeps for the backward: every floating array is float32
    when the input and the weights are (the dropout masks are bool)."""
    x = rng.standard_normal((2, 4, 8)).astype(np.float32)
    memory = rng.standard_normal((2, 5, 8)).astype(np.float32)
    enc, dec = (
        {sub: {k: v.astype(np.float32) for k, v in p.items()} for sub, p in layer.items()}
        for layer in (init_encoder_layer(rng, 8, 16), init_decoder_layer(rng, 8, 16))
    )
    out, cache = encoder_layer_forward(x, enc, 2, None, 0.1, np.random.default_rng(1))
    dx, grads = encoder_layer_backward(np.ones_like(out), cache, enc, 2, None, 0.1)
    out_d, cache_d = decoder_layer_forward(x, memory, dec, 2, causal_mask(4), None, 0.1, np.random.default_rng(1))
    dy, d_memory, grads_d = decoder_layer_backward(np.ones_like(out_d), cache_d, dec, 2, causal_mask(4), None, 0.1)
    arrays = [out, dx, out_d, dy, d_memory] + _arrays(cache) + _arrays(grads) + _arrays(cache_d) + _arrays(grads_d)
    assert {a.dtype for a in arrays} == {np.dtype(np.float32), np.dtype(bool)}
