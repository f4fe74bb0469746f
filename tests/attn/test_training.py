"""attn.training: dropout, and the training layers without dropout are the inference layers."""

import numpy as np
import pytest

from attn.core import causal_mask
from attn.init import init_decoder_layer, init_encoder_layer
from attn.layers import decoder_layer, encoder_layer
from attn.training import decoder_layer_forward, dropout, encoder_layer_forward

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


# ----------------------------------------------------------- whole model --


def test_training_layers_without_dropout_are_the_inference_layers(rng):
    x, memory = rng.standard_normal((2, 4, 8)), rng.standard_normal((2, 5, 8))
    enc, dec = init_encoder_layer(rng, 8, 16), init_decoder_layer(rng, 8, 16)
    mask = rng.random((2, 1, 4)) < 0.8
    np.testing.assert_allclose(encoder_layer_forward(x, enc, 2, mask)[0], encoder_layer(x, enc, 2, mask), atol=1e-12)
    np.testing.assert_allclose(
        decoder_layer_forward(x, memory, dec, 2, causal_mask(4))[0], decoder_layer(x, memory, dec, 2), atol=1e-12
    )
