"""attn.params: count_parameters on real parameter trees."""

import numpy as np
import pytest

from attn.init import (
    init_attention,
    init_decoder_layer,
    init_encoder_layer,
    init_multi_head,
)
from attn.params import count_parameters

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
