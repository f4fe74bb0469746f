"""attn.prenorm: pre-norm and post-norm stacks against their formulas."""

import numpy as np
import pytest

import attn


@pytest.fixture
def layers(rng):
    return [attn.init_encoder_layer(rng, 8, 16) for _ in range(3)]


# --------------------------------------------------------------- prenorm --


def test_pre_norm_layer_follows_the_formula(rng, layers):
    x = rng.standard_normal((2, 5, 8))
    p = layers[0]
    mask = attn.causal_mask(5)
    z = attn.layer_norm(x, **p["norm1"])
    y = x + attn.multi_head_attention(z, z, p["self_attn"], 2, mask)
    y = y + attn.feed_forward(attn.layer_norm(y, **p["norm2"]), p["ffn"])
    np.testing.assert_allclose(attn.pre_norm_layer(x, p, 2, mask), y, rtol=0, atol=1e-12)


def test_a_pre_norm_stack_is_its_input_plus_every_sublayer(rng, layers):
    x = rng.standard_normal((5, 8))
    total, y = x.copy(), x
    for p in layers:
        z = attn.layer_norm(y, **p["norm1"])
        attention = attn.multi_head_attention(z, z, p["self_attn"], 2)
        ffn = attn.feed_forward(attn.layer_norm(y + attention, **p["norm2"]), p["ffn"])
        total += attention + ffn
        y = y + attention + ffn
    np.testing.assert_allclose(attn.pre_norm_stack(x, layers, 2, final_norm=None), total, rtol=0, atol=1e-12)
    final = attn.init_layer_norm(8)
    np.testing.assert_allclose(attn.pre_norm_stack(x, layers, 2, final), attn.layer_norm(total), rtol=0, atol=1e-12)


def test_post_norm_stack_is_encoder_layer_repeated(rng, layers):
    x = rng.standard_normal((5, 8))
    y = x
    for p in layers:
        y = attn.encoder_layer(y, p, 2)
    np.testing.assert_array_equal(attn.post_norm_stack(x, layers, 2), y)
    assert np.allclose(attn.post_norm_stack(x, layers, 2).mean(axis=-1), 0)
