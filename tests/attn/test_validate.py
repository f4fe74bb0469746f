"""attn._validate: every mistake a caller can make is refused with a message that names the argument."""

import math

import numpy as np
import pytest

import attn
from attn.blockwise import blockwise_attention, plain_attention
from attn.core import causal_mask, padding_mask, scaled_dot_product_attention, softmax
from attn.init import init_attention, init_decoder_layer, init_encoder_layer, init_feed_forward, init_multi_head
from attn.layers import decoder_layer, encoder_layer, feed_forward, layer_norm
from attn.multihead import attention_head, merge_heads, multi_head_attention, split_heads
from attn.position import positional_encoding

RNG = np.random.default_rng(0)

X = RNG.standard_normal((2, 5, 8))  # (batch, n, d_model)

Q, K, V = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 6, 4)), RNG.standard_normal((2, 6, 2))

MHA = init_multi_head(np.random.default_rng(1), 8)

HEAD = init_attention(np.random.default_rng(1), 8, d_k=4)

FFN = init_feed_forward(np.random.default_rng(1), 8, 16)

ENCODER = init_encoder_layer(np.random.default_rng(1), 8, 16)

DECODER = init_decoder_layer(np.random.default_rng(1), 8, 16)

ATTENTION = {
    "default": lambda q, k, v, mask=None: scaled_dot_product_attention(q, k, v, mask),
    "weights": lambda q, k, v, mask=None: scaled_dot_product_attention(q, k, v, mask, return_weights=True)[0],
    "blockwise": lambda q, k, v, mask=None: blockwise_attention(q, k, v, mask, block_size=2, key_block_size=4),
    "plain": plain_attention,
}

MISTAKES = [  # (id, call, error, argument named in the message)
    ("d_k = 0", lambda f: f(np.ones((3, 0)), np.ones((4, 0)), np.ones((4, 2))), ValueError, "d_k"),
    ("no keys", lambda f: f(np.ones((3, 2)), np.ones((0, 2)), np.ones((0, 2))), ValueError, "n_k"),
    ("d_k differs", lambda f: f(np.ones((3, 2)), np.ones((4, 3)), np.ones((4, 2))), ValueError, "d_k"),
    ("n_k differs", lambda f: f(np.ones((3, 2)), np.ones((4, 2)), np.ones((5, 2))), ValueError, "n_k"),
    ("q is 1-D", lambda f: f(np.ones(2), np.ones((4, 2)), np.ones((4, 2))), ValueError, "q"),
    ("v is 1-D", lambda f: f(np.ones((3, 2)), np.ones((4, 2)), np.ones(4)), ValueError, "v"),
    ("complex q", lambda f: f(Q + 1j, K, V), TypeError, "q"),
    ("complex v", lambda f: f(Q, K, V.astype(complex)), TypeError, "v"),
    ("boolean k", lambda f: f(Q, K > 0, V), TypeError, "k"),
    ("string q", lambda f: f(np.array([["a"]]), K, V), TypeError, "q"),
    ("batches differ", lambda f: f(Q, np.ones((3, 6, 4)), np.ones((3, 6, 2))), ValueError, "batch"),
    ("mask not boolean", lambda f: f(Q, K, V, np.ones((3, 6))), TypeError, "mask"),
    ("mask wrong n_k", lambda f: f(Q, K, V, np.ones((3, 5), bool)), ValueError, "mask"),
    ("mask batch", lambda f: f(Q, K, V, np.ones((3, 3, 6), bool)), ValueError, "mask"),
]


@pytest.mark.parametrize("name", ATTENTION)
@pytest.mark.parametrize("case, call, error, argument", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_attention_mistakes(name, case, call, error, argument):
    with pytest.raises(error, match=argument):
        call(ATTENTION[name])


def test_complex_inputs_are_refused_not_truncated():
    """numpy would cast 1 + 2j to 1.0 with only a warning; attention must refuse it."""
    with pytest.raises(TypeError, match="complex"):
        scaled_dot_product_attention(Q.astype(complex), K, V)


OTHER_MISTAKES = [  # (id, call, error, argument named in the message)
    ("softmax complex", lambda: softmax(np.array([1j])), TypeError, "x"),
    ("softmax axis float", lambda: softmax(np.ones((2, 3)), axis=1.0), TypeError, "axis"),
    ("softmax axis range", lambda: softmax(np.ones((2, 3)), axis=2), ValueError, "axis"),
    ("layer_norm eps 0", lambda: layer_norm(X, eps=0.0), ValueError, "eps"),
    ("layer_norm eps < 0", lambda: layer_norm(X, eps=-1e-5), ValueError, "eps"),
    ("layer_norm eps nan", lambda: layer_norm(X, eps=math.nan), ValueError, "eps"),
    ("layer_norm eps str", lambda: layer_norm(X, eps="1e-5"), TypeError, "eps"),
    ("layer_norm complex", lambda: layer_norm(X + 1j), TypeError, "x"),
    ("feed_forward complex", lambda: feed_forward(X + 1j, FFN), TypeError, "x"),
    ("split_heads 1-D", lambda: split_heads(np.ones(8), 2), ValueError, "x"),
    ("split_heads h float", lambda: split_heads(X, 2.0), TypeError, "h"),
    ("split_heads h 0", lambda: split_heads(X, 0), ValueError, "h"),
    ("split_heads h divides", lambda: split_heads(X, 3), ValueError, "h"),
    ("merge_heads 2-D", lambda: merge_heads(np.ones((5, 4))), ValueError, "x"),
    ("multi_head d_model", lambda: multi_head_attention(X, X[..., :4], MHA, 2), ValueError, "x_q and x_kv"),
    ("multi_head 1-D", lambda: multi_head_attention(np.ones(8), X, MHA, 2), ValueError, "x_q"),
    ("multi_head complex", lambda: multi_head_attention(X, X + 1j, MHA, 2), TypeError, "x_kv"),
    ("multi_head mask", lambda: multi_head_attention(X, X, MHA, 2, np.ones((5, 4), bool)), ValueError, "mask"),
    ("attention_head 1-D", lambda: attention_head(X, np.ones(8), HEAD), ValueError, "x_kv"),
    ("encoder_layer 1-D", lambda: encoder_layer(np.ones(8), ENCODER, 2), ValueError, "x"),
    ("decoder_layer y 1-D", lambda: decoder_layer(np.ones(8), X, DECODER, 2), ValueError, "y"),
    ("decoder_layer memory 1-D", lambda: decoder_layer(X, np.ones(8), DECODER, 2), ValueError, "memory"),
    ("decoder_layer d_model", lambda: decoder_layer(X, X[..., :4], DECODER, 2), ValueError, "y and memory"),
    ("positional base 0", lambda: positional_encoding(4, 8, base=0.0), ValueError, "base"),
    ("positional base inf", lambda: positional_encoding(4, 8, base=math.inf), ValueError, "base"),
    ("positional base str", lambda: positional_encoding(4, 8, base="1e4"), TypeError, "base"),
    ("padding lengths float", lambda: padding_mask(np.array([1.0]), 4), TypeError, "lengths"),
    ("padding lengths 2-D", lambda: padding_mask(np.array([[1]]), 4), ValueError, "lengths"),
    ("sequential kind", lambda: attn.sequential_steps(3, 1), TypeError, "kind"),
    ("init rng", lambda: init_multi_head(np.random.RandomState(0), 8), TypeError, "rng"),
]


@pytest.mark.parametrize("case, call, error, argument", OTHER_MISTAKES, ids=[m[0] for m in OTHER_MISTAKES])
def test_other_mistakes(case, call, error, argument):
    with pytest.raises(error, match=argument):
        call()


INT_ARGUMENTS = [  # (id, call with the int argument, minimum, argument name)
    ("causal_mask n", lambda n: causal_mask(n), 0, "n"),
    ("padding_mask n", lambda n: padding_mask([0], n), 0, "n"),
    ("positional n", lambda n: positional_encoding(n, 4), 0, "n"),
    ("positional d_model", lambda d: positional_encoding(3, d), 0, "d_model"),
    ("split_heads h", lambda h: split_heads(X, h), 1, "h"),
    ("multi_head h", lambda h: multi_head_attention(X, X, MHA, h), 1, "h"),
    ("blockwise block_size", lambda b: blockwise_attention(Q, K, V, block_size=b), 1, "block_size"),
    ("blockwise key_block_size", lambda b: blockwise_attention(Q, K, V, key_block_size=b), 1, "key_block_size"),
    ("softmax axis", lambda a: softmax(X, axis=a), None, "axis"),
    ("init_attention d_model", lambda d: init_attention(np.random.default_rng(0), d), 1, "d_model"),
    ("init_attention d_k", lambda d: init_attention(np.random.default_rng(0), 8, d_k=d), 1, "d_k"),
    ("init_attention d_v", lambda d: init_attention(np.random.default_rng(0), 8, d_v=d), 1, "d_v"),
    ("init_multi_head d_model", lambda d: init_multi_head(np.random.default_rng(0), d), 1, "d_model"),
    ("init_feed_forward d_ff", lambda d: init_feed_forward(np.random.default_rng(0), 8, d), 1, "d_ff"),
    ("init_layer_norm d_model", lambda d: attn.init_layer_norm(d), 1, "d_model"),
    ("attention_flops n", lambda n: attn.attention_flops(n, 4), 0, "n"),
    ("recurrent_flops d", lambda d: attn.recurrent_flops(4, d), 0, "d"),
    ("attention_crossover d", lambda d: attn.attention_crossover(d), 0, "d"),
    ("sequential_steps n", lambda n: attn.sequential_steps(n, "recurrent"), 0, "n"),
    ("score_matrix_bytes itemsize", lambda i: attn.score_matrix_bytes(4, i), 0, "itemsize"),
    ("score_block_bytes block_size", lambda b: attn.score_block_bytes(b, 4), 0, "block_size"),
]


@pytest.mark.parametrize("case, call, minimum, argument", INT_ARGUMENTS, ids=[a[0] for a in INT_ARGUMENTS])
def test_integer_arguments_are_checked_one_way(case, call, minimum, argument):
    """Every int argument: TypeError for a float, a bool or a str; ValueError below its minimum; numpy ints accepted."""
    for wrong_type in (2.0, True, "2"):
        with pytest.raises(TypeError, match=rf"\b{argument} must be an int"):
            call(wrong_type)
    if minimum is not None:
        with pytest.raises(ValueError, match=rf"\b{argument} must be >= {minimum}"):
            call(minimum - 1)
    call(np.int64(2 if argument != "axis" else -1))


OVERFLOWING = [  # (id, q, k): finite inputs whose scores pass the dtype's largest value
    ("float16 +", np.full((3, 4), 200.0, np.float16), np.full((5, 4), 200.0, np.float16)),  # scores 80000
    ("float16 -", np.full((3, 4), 200.0, np.float16), np.full((5, 4), -200.0, np.float16)),  # all -80000
    ("float32", np.full((3, 4), 1e20, np.float32), np.full((5, 4), 1e20, np.float32)),
    ("float64", np.full((3, 4), 1e160), np.full((5, 4), 1e160)),
]


# -------------------------------------------------------------- overflow --


@pytest.mark.parametrize("name", ATTENTION)
@pytest.mark.parametrize("case, q, k", OVERFLOWING, ids=[o[0] for o in OVERFLOWING])
def test_scores_that_overflow_raise(name, case, q, k):
    """All scores at -80000 in float16 are -inf: without the check, the row would read as fully masked
    and come out as silent zeros; with +inf scores it would be nan."""
    v = np.ones((5, 2), dtype=q.dtype)
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"q and k: the scores of query row 0 overflow"):
        ATTENTION[name](q, k, v)


@pytest.mark.parametrize("name", ATTENTION)
def test_overflow_is_reported_with_its_row_and_batch_entry(name):
    q = np.ones((2, 3, 4), np.float16)
    q[1, 2] = 400.0  # scores 400 * 100 * 4 / 2 = 80000
    k = np.full((2, 5, 4), 100.0, np.float16)
    with (
        np.errstate(all="ignore"),
        pytest.raises(ValueError, match=r"query row 2 of batch entry \(1,\) overflow float16"),
    ):
        ATTENTION[name](q, k, np.ones((2, 5, 2), np.float16))


@pytest.mark.parametrize("name", ATTENTION)
def test_long_vectors_at_right_angles_do_not_overflow(name):
    """|q| |k| / sqrt(d_k) is far beyond float16, but the scores are 0: no error, the textbook result."""
    q = np.array([[1000.0, 0.0], [0.0, 1.0]], np.float16)
    k = np.array([[0.0, 1000.0], [0.0, 999.0]], np.float16)
    v = np.array([[1.0, 0.0], [0.0, 1.0]], np.float16)
    with np.errstate(all="ignore"):
        out = ATTENTION[name](q, k, v)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out[0], [0.5, 0.5], atol=1e-3)


@pytest.mark.parametrize("name", ATTENTION)
def test_an_overflow_behind_the_mask_is_no_error(name):
    q = np.full((2, 4), 100.0, np.float16)
    k = np.array([[0.1] * 4, [600.0] * 4, [0.2] * 4], np.float16)  # key 1 scores 120000: masked
    v = np.eye(3, dtype=np.float16)
    mask = np.array([True, False, True])
    with np.errstate(all="ignore"):
        out = ATTENTION[name](q, k, v, mask)
    assert np.isfinite(out).all() and np.all(out[:, 1] == 0.0)


@pytest.mark.parametrize("name", ATTENTION)
def test_nan_and_inf_inputs_are_not_called_overflow(name):
    """A nan or inf input gives nan where it reaches: the input's, not an overflow."""
    q, k, v = Q.copy(), K.copy(), V.copy()
    q[0, 1, 2] = np.nan
    k[1, 3, 0] = np.inf
    with np.errstate(all="ignore"):
        out = ATTENTION[name](q, k, v)
    assert np.isnan(out[0, 1]).all()
    assert np.isfinite(out[0, [0, 2]]).all()
