"""Every backward pass against central finite differences in float64, in float32 against float64,
and exact properties.

Each case is a layer with its inputs and parameters drawn from a seeded Generator. The scalar
L = sum(layer(inputs) * R), with R random, has dL/d(output) = R; the layer's backward, given R,
must return the gradient of L with respect to every input and parameter, which central
differences estimate independently. The relative error must stay below 1e-6. The table covers
the backward passes of attn.backward and those of attn.embedding, attn.loss and attn.training:
one finite-difference harness for all of them.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attn.backward import (
    attention_backward,
    feed_forward_backward,
    layer_norm_backward,
    multi_head_attention_backward,
    softmax_backward,
)
from attn.core import causal_mask, scaled_dot_product_attention, softmax
from attn.embedding import embed, embed_backward, output_logits, output_logits_backward
from attn.init import init_decoder_layer, init_encoder_layer, init_feed_forward, init_multi_head
from attn.layers import feed_forward, layer_norm
from attn.loss import cross_entropy, cross_entropy_backward
from attn.multihead import multi_head_attention
from attn.training import (
    decoder_layer_backward,
    decoder_layer_forward,
    dropout,
    dropout_backward,
    encoder_layer_backward,
    encoder_layer_forward,
)

TOLERANCE = 1e-6  # relative error, float64


def _flat(prefix, params):
    return {f"{prefix}.{name}": value for name, value in params.items()}


def _nested(inputs, prefix):
    return {name[len(prefix) + 1 :]: value for name, value in inputs.items() if name.startswith(prefix + ".")}


def _flatten_layer(prefix, layer):
    return {f"{prefix}.{sub}.{name}": value for sub, params in layer.items() for name, value in params.items()}


def _layer_from(inputs, prefix, names):
    return {sub: _nested(inputs, f"{prefix}.{sub}") for sub in names}


def _grads_of_layer(prefix, grads):
    return {f"{prefix}.{sub}.{name}": value for sub, params in grads.items() for name, value in params.items()}


def case_softmax(rng):
    scores = rng.standard_normal((3, 5))
    scores[0, [1, 3]] = -np.inf  # masked entries: weight 0, gradient 0
    scores[2, :] = -np.inf  # a fully masked row
    return (
        {"scores": scores},
        lambda i: softmax(i["scores"]),
        lambda d, i: {"scores": softmax_backward(d, softmax(i["scores"]))},
    )


def _attention_case(q_shape, k_shape, v_shape, mask_of):
    def case(rng):
        inputs = {
            "q": rng.standard_normal(q_shape),
            "k": rng.standard_normal(k_shape),
            "v": rng.standard_normal(v_shape),
        }
        mask = mask_of(rng)
        return (
            inputs,
            lambda i: scaled_dot_product_attention(i["q"], i["k"], i["v"], mask),
            lambda d, i: dict(zip("qkv", attention_backward(d, i["q"], i["k"], i["v"], mask), strict=True)),
        )

    return case


def _padding_with_an_empty_row(rng):
    mask = rng.random((2, 3, 5)) < 0.6
    mask[0, 1] = False  # a query that may attend to nothing: zero output, zero gradient
    return mask


def _mha_case(self_attention, mask_of):
    def case(rng):
        d_model, h = 8, 2
        x_q = rng.standard_normal((2, 4, d_model))
        inputs = {"x_q": x_q, **_flat("p", init_multi_head(rng, d_model))}
        if not self_attention:
            inputs["x_kv"] = rng.standard_normal((2, 5, d_model))
        mask = mask_of(rng)

        def forward(i):
            x_kv = i["x_q"] if self_attention else i["x_kv"]
            return multi_head_attention(i["x_q"], x_kv, _nested(i, "p"), h, mask)

        def backward(d, i):
            x_kv = i["x_q"] if self_attention else i["x_kv"]
            dx_q, dx_kv, grads = multi_head_attention_backward(d, i["x_q"], x_kv, _nested(i, "p"), h, mask)
            out = {"x_q": dx_q + dx_kv if self_attention else dx_q, **_flat("p", grads)}
            if not self_attention:
                out["x_kv"] = dx_kv
            return out

        return inputs, forward, backward

    return case


def case_layer_norm(rng):
    inputs = {
        "x": rng.standard_normal((2, 3, 6)) * 3 + 1,
        "gamma": rng.standard_normal(6),
        "beta": rng.standard_normal(6),
    }

    def backward(d, i):
        dx, grads = layer_norm_backward(d, i["x"], i["gamma"])
        return {"x": dx, **grads}

    return inputs, lambda i: layer_norm(i["x"], i["gamma"], i["beta"]), backward


def case_layer_norm_without_gain(rng):
    inputs = {"x": rng.standard_normal((4, 5))}
    return inputs, lambda i: layer_norm(i["x"]), lambda d, i: {"x": layer_norm_backward(d, i["x"])[0]}


def case_feed_forward(rng):
    params = init_feed_forward(rng, 6, 10)
    params["b_1"] = rng.standard_normal(10)
    inputs = {"x": rng.standard_normal((2, 3, 6)), **_flat("p", params)}

    def backward(d, i):
        dx, grads = feed_forward_backward(d, i["x"], _nested(i, "p"))
        return {"x": dx, **_flat("p", grads)}

    return inputs, lambda i: feed_forward(i["x"], _nested(i, "p")), backward


def case_dropout(rng):
    p_drop, seed = 0.3, int(rng.integers(1000))
    inputs = {"x": rng.standard_normal((3, 4))}
    forward = lambda i: dropout(i["x"], p_drop, np.random.default_rng(seed))[0]  # noqa: E731 - the same mask every call
    keep = dropout(inputs["x"], p_drop, np.random.default_rng(seed))[1]
    return inputs, forward, lambda d, i: {"x": dropout_backward(d, keep, p_drop)}


def _embed_case(position):
    def case(rng):
        tokens = rng.integers(0, 5, (2, 4))
        tokens[0, :2] = 3  # a token used twice collects both gradients
        inputs = {"E": rng.standard_normal((5, 6))}
        return (
            inputs,
            lambda i: embed(tokens, i["E"], position),
            lambda d, i: {"E": embed_backward(d, tokens, i["E"])},
        )

    return case


def case_output_logits(rng):
    inputs = {"y": rng.standard_normal((2, 3, 6)), "E": rng.standard_normal((7, 6))}
    return (
        inputs,
        lambda i: output_logits(i["y"], i["E"]),
        lambda d, i: dict(zip(("y", "E"), output_logits_backward(d, i["y"], i["E"]), strict=True)),
    )


def _loss_case(eps_ls, pad):
    def case(rng):
        targets = rng.integers(0, 6, (2, 5))
        targets[1, 3:] = 0 if pad is not None else targets[1, 3:]
        inputs = {"logits": rng.standard_normal((2, 5, 6)) * 3}
        # A scalar: the caller's R is one number, and d(loss * R) / d(logits) = R * backward.
        return (
            inputs,
            lambda i: np.array(cross_entropy(i["logits"], targets, eps_ls, pad)),
            lambda d, i: {"logits": d * cross_entropy_backward(i["logits"], targets, eps_ls, pad)},
        )

    return case


def _encoder_layer_case(p_drop):
    def case(rng):
        d_model, d_ff, h, seed = 8, 12, 2, 7
        layer = init_encoder_layer(rng, d_model, d_ff)
        inputs = {"x": rng.standard_normal((2, 4, d_model)), **_flatten_layer("p", layer)}
        mask = np.array([[True, True, True, False], [True, True, True, True]])[:, None, :]  # padding keys
        names = list(layer)

        def forward(i):
            rng_drop = np.random.default_rng(seed) if p_drop else None
            return encoder_layer_forward(i["x"], _layer_from(i, "p", names), h, mask, p_drop, rng_drop)[0]

        def backward(d, i):
            rng_drop = np.random.default_rng(seed) if p_drop else None
            params = _layer_from(i, "p", names)
            _, cache = encoder_layer_forward(i["x"], params, h, mask, p_drop, rng_drop)
            dx, grads = encoder_layer_backward(d, cache, params, h, mask, p_drop)
            return {"x": dx, **_grads_of_layer("p", grads)}

        return inputs, forward, backward

    return case


def _decoder_layer_case(p_drop):
    def case(rng):
        d_model, d_ff, h, seed = 8, 12, 2, 11
        layer = init_decoder_layer(rng, d_model, d_ff)
        inputs = {
            "y": rng.standard_normal((2, 4, d_model)),
            "memory": rng.standard_normal((2, 5, d_model)),
            **_flatten_layer("p", layer),
        }
        self_mask = causal_mask(4)
        memory_mask = np.array([[True] * 5, [True, True, True, False, False]])[:, None, :]
        names = list(layer)

        def run(i):
            rng_drop = np.random.default_rng(seed) if p_drop else None
            params = _layer_from(i, "p", names)
            return params, decoder_layer_forward(
                i["y"], i["memory"], params, h, self_mask, memory_mask, p_drop, rng_drop
            )

        def backward(d, i):
            params, (_, cache) = run(i)
            dy, d_memory, grads = decoder_layer_backward(d, cache, params, h, self_mask, memory_mask, p_drop)
            return {"y": dy, "memory": d_memory, **_grads_of_layer("p", grads)}

        return inputs, lambda i: run(i)[1][0], backward

    return case


CASES = {
    "softmax, masked entries and a fully masked row": case_softmax,
    "attention": _attention_case((2, 3, 4), (2, 5, 4), (2, 5, 3), lambda rng: None),
    "attention, causal mask": _attention_case((2, 4, 3), (2, 4, 3), (2, 4, 5), lambda rng: causal_mask(4)),
    "attention, padding mask and an empty row": _attention_case(
        (2, 3, 4), (2, 5, 4), (2, 5, 3), _padding_with_an_empty_row
    ),
    "attention, keys shared by the batch": _attention_case((2, 3, 4), (5, 4), (5, 3), lambda rng: None),
    "multi-head self-attention, causal": _mha_case(True, lambda rng: causal_mask(4)),
    "multi-head cross-attention, padding": _mha_case(False, lambda rng: rng.random((2, 1, 5)) < 0.7),
    "layer norm": case_layer_norm,
    "layer norm without gain": case_layer_norm_without_gain,
    "feed-forward": case_feed_forward,
    "dropout": case_dropout,
    "embedding with positions": _embed_case(True),
    "embedding without positions": _embed_case(False),
    "output projection": case_output_logits,
    "cross-entropy, smoothed, padding": _loss_case(0.1, 0),
    "cross-entropy, plain": _loss_case(0.0, None),
    "encoder layer": _encoder_layer_case(0.0),
    "encoder layer with dropout": _encoder_layer_case(0.2),
    "decoder layer": _decoder_layer_case(0.0),
    "decoder layer with dropout": _decoder_layer_case(0.2),
}


# ----------------------------------------------------------------- cases --


@pytest.mark.parametrize("name", CASES)
def test_backward_matches_central_differences(name, rng, central_differences, relative_error):
    inputs, forward, backward = CASES[name](rng)
    R = rng.standard_normal(np.shape(forward(inputs)))  # dL/d(output) for L = sum(output * R)
    analytic = backward(R, inputs)
    assert set(analytic) == set(inputs), name
    for key, value in inputs.items():
        numeric = central_differences(lambda: float(np.sum(forward(inputs) * R)), value)
        assert analytic[key].shape == value.shape, f"{name}: {key}"
        assert relative_error(analytic[key], numeric) <= TOLERANCE, f"{name}: {key}"


# Float32 against float64 on the same (float32) values, relative error per array. float32's eps is
# 1.2e-7; over 100 seeds of this table the worst output is 2.1 eps off and the worst gradient 11 eps
# (a gradient sums products whose terms partly cancel). 1e-5 is about 84 eps, 1e-4 about 840.
FLOAT32_OUTPUT_TOLERANCE, FLOAT32_GRADIENT_TOLERANCE = 1e-5, 1e-4


@pytest.mark.parametrize("name", CASES)
def test_float32_in_float32_out(name, rng, relative_error):
    """Every backward pass (and its forward) keeps float32: nothing promotes to float64 on the way,
    and the result is the float64 one to float32 precision. The loss is a Python float by design."""
    inputs, forward, backward = CASES[name](rng)
    inputs32 = {key: value.astype(np.float32) for key, value in inputs.items()}
    inputs64 = {key: value.astype(np.float64) for key, value in inputs32.items()}
    out32, out64 = forward(inputs32), forward(inputs64)
    if np.ndim(out32):
        assert out32.dtype == np.float32, name
        finite = np.isfinite(out64)
        assert relative_error(out32[finite], out64[finite]) <= FLOAT32_OUTPUT_TOLERANCE, name
    R = rng.standard_normal(np.shape(out64)).astype(np.float32)
    grads32, grads64 = backward(R, inputs32), backward(R.astype(np.float64), inputs64)
    for key in inputs:
        assert grads32[key].dtype == np.float32 and grads64[key].dtype == np.float64, f"{name}: {key}"
        assert relative_error(grads32[key], grads64[key]) <= FLOAT32_GRADIENT_TOLERANCE, f"{name}: {key}"


small_floats = st.floats(-5, 5, allow_nan=False, width=64)


# ------------------------------------------------------------ properties --


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, (3, 6), elements=small_floats), hnp.arrays(np.float64, (3, 6), elements=small_floats))
def test_softmax_gradient_rows_sum_to_zero(scores, d_weights):
    """softmax(s + c) = softmax(s): moving every score of a row together changes nothing."""
    d_scores = softmax_backward(d_weights, softmax(scores))
    np.testing.assert_allclose(d_scores.sum(axis=-1), 0.0, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 6), st.booleans())
def test_attention_gradient_identities(seed, n_q, n_k, masked):
    """Shifting every key by one vector adds a constant to each row of scores (sum_j dk_j = 0), and
    each query's weights sum to 1, so the values' gradients add up to the output's (sum_j dv_j = sum_i dO_i)."""
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((n_q, 3)), rng.standard_normal((n_k, 3)), rng.standard_normal((n_k, 2))
    mask = rng.random((n_q, n_k)) < 0.7 if masked else None
    if mask is not None:
        mask[:, 0] = True  # no empty row: every query's weights sum to 1
    d_out = rng.standard_normal((n_q, 2))
    dq, dk, dv = attention_backward(d_out, q, k, v, mask)
    np.testing.assert_allclose(dk.sum(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(dv.sum(axis=0), d_out.sum(axis=0), atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(-3, 3), st.floats(-3, 3))
def test_attention_backward_is_linear_in_the_output_gradient(seed, a, b):
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((4, 3)), rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    d1, d2 = rng.standard_normal((4, 2)), rng.standard_normal((4, 2))
    combined = attention_backward(a * d1 + b * d2, q, k, v, causal_mask(5)[:4])
    for g, g1, g2 in zip(
        combined,
        attention_backward(d1, q, k, v, causal_mask(5)[:4]),
        attention_backward(d2, q, k, v, causal_mask(5)[:4]),
        strict=True,
    ):
        np.testing.assert_allclose(g, a * g1 + b * g2, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, (2, 5), elements=small_floats), hnp.arrays(np.float64, (2, 5), elements=small_floats))
def test_layer_norm_gradient_sums_to_zero(x, d_y):
    """LayerNorm(x + c) = LayerNorm(x): the gradient has no component along (1, ..., 1)."""
    dx, _ = layer_norm_backward(d_y, x, np.arange(1.0, 6.0))
    np.testing.assert_allclose(dx.sum(axis=-1), 0.0, atol=1e-9)
