"""attn.blockwise: the online softmax over key blocks equals the textbook formula, at any block size."""

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn.blockwise import blockwise_attention, plain_attention
from attn.core import causal_mask, padding_mask, scaled_dot_product_attention, softmax


def qkv(rng, batch, n_q, n_k, d_k, d_v, dtype=np.float64):
    """Standard-normal q (batch, n_q, d_k), k (batch, n_k, d_k), v (batch, n_k, d_v)."""
    q = rng.standard_normal(batch + (n_q, d_k)).astype(dtype)
    k = rng.standard_normal(batch + (n_k, d_k)).astype(dtype)
    v = rng.standard_normal(batch + (n_k, d_v)).astype(dtype)
    return q, k, v


CASES = [  # (batch, n_q, n_k, d_k, d_v, block_size, key_block_size)
    ((), 1, 1, 1, 1, 1, 1),
    ((), 10, 10, 4, 4, 3, 3),
    ((), 100, 37, 8, 5, 16, 10),  # neither n divisible by its block
    ((), 37, 100, 8, 5, 256, 1024),  # blocks larger than n
    ((2,), 50, 70, 6, 3, 7, 9),
    ((2, 3), 20, 20, 4, 4, 8, 5),
    ((), 600, 600, 16, 16, 256, 256),
]


@pytest.mark.parametrize("batch, n_q, n_k, d_k, d_v, block_size, key_block_size", CASES)
def test_blockwise_equals_default(rng, batch, n_q, n_k, d_k, d_v, block_size, key_block_size):
    q, k, v = qkv(rng, batch, n_q, n_k, d_k, d_v)
    out = blockwise_attention(q, k, v, block_size=block_size, key_block_size=key_block_size)
    assert out.shape == batch + (n_q, d_v)
    assert np.max(np.abs(out - scaled_dot_product_attention(q, k, v))) <= 1e-12


@pytest.mark.parametrize("batch, n_q, n_k, d_k, d_v, block_size, key_block_size", CASES)
def test_masked_blockwise_equals_default(rng, batch, n_q, n_k, d_k, d_v, block_size, key_block_size):
    q, k, v = qkv(rng, batch, n_q, n_k, d_k, d_v)
    mask = rng.random(batch + (n_q, n_k)) < 0.5
    mask[..., 0, :] = False  # a fully masked query row
    mask[..., :, -1] = False  # the last key hidden from everyone (an empty last key block for some sizes)
    out = blockwise_attention(q, k, v, mask, block_size=block_size, key_block_size=key_block_size)
    assert np.max(np.abs(out - scaled_dot_product_attention(q, k, v, mask))) <= 1e-12
    assert np.all(out[..., 0, :] == 0.0)


def test_causal_and_padding_masks(rng):
    q, k, v = qkv(rng, (3,), 40, 40, 8, 8)
    for mask in (causal_mask(40), padding_mask(np.array([40, 17, 0]), 40)):
        out = blockwise_attention(q, k, v, mask, block_size=16, key_block_size=8)
        assert np.max(np.abs(out - scaled_dot_product_attention(q, k, v, mask))) <= 1e-12
        assert np.max(np.abs(out - plain_attention(q, k, v, mask))) <= 1e-12


def test_shared_keys_broadcast(rng):
    q = rng.standard_normal((2, 3, 30, 4))  # (batch, h, n_q, d_k)
    k, v = rng.standard_normal((30, 4)), rng.standard_normal((30, 2))
    out = blockwise_attention(q, k, v, block_size=8, key_block_size=8)
    assert out.shape == (2, 3, 30, 2)
    assert np.max(np.abs(out - scaled_dot_product_attention(q, k, v))) <= 1e-12


def test_large_scores_later_block_wins(rng):
    """A key block with far larger scores arrives last: earlier sums must be rescaled to 0, not overflow."""
    q = np.ones((4, 2))
    k = np.concatenate([np.zeros((6, 2)), np.full((2, 2), 1e4)])  # last block scores ~1.4e4
    v = rng.standard_normal((8, 3))
    out = blockwise_attention(q, k, v, block_size=2, key_block_size=3)
    np.testing.assert_allclose(out, np.broadcast_to(v[6:].mean(axis=0), (4, 3)), rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 40),
    st.integers(1, 6),
    st.integers(1, 12),
    st.integers(1, 12),
    st.floats(1e-2, 1e2),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_blockwise_property(n_q, n_k, d_k, block_size, key_block_size, spread, masked, seed):
    gen = np.random.default_rng(seed)
    q, k = gen.uniform(-spread, spread, (n_q, d_k)), gen.uniform(-spread, spread, (n_k, d_k))
    v = gen.standard_normal((n_k, 3))
    mask = gen.random((n_q, n_k)) < 0.6 if masked else None
    out = blockwise_attention(q, k, v, mask, block_size=block_size, key_block_size=key_block_size)
    assert np.all(np.isfinite(out))
    assert np.max(np.abs(out - scaled_dot_product_attention(q, k, v, mask))) <= 1e-12


@pytest.mark.parametrize("function", [blockwise_attention, plain_attention])
def test_float32(rng, function):
    q, k, v = qkv(rng, (), 300, 300, 16, 16)
    out32 = function(q.astype(np.float32), k.astype(np.float32), v.astype(np.float32))
    assert out32.dtype == np.float32
    assert np.max(np.abs(out32 - scaled_dot_product_attention(q, k, v))) < 1e-5


def test_plain_is_the_textbook_formula(rng):
    q, k, v = qkv(rng, (2,), 9, 11, 4, 3)
    expected = softmax(q @ k.swapaxes(-1, -2) / math.sqrt(4)) @ v
    np.testing.assert_array_equal(plain_attention(q, k, v), expected)
    mask = rng.random((9, 11)) < 0.5
    _, weights = scaled_dot_product_attention(q, k, v, mask, return_weights=True)
    np.testing.assert_allclose(plain_attention(q, k, v, mask), weights @ v, atol=1e-14)


@pytest.mark.parametrize(
    "kwargs, error",
    [({"block_size": 0}, ValueError), ({"key_block_size": -1}, ValueError), ({"block_size": 2.5}, TypeError)],
)
def test_bad_block_sizes(rng, kwargs, error):
    q, k, v = qkv(rng, (), 4, 4, 2, 2)
    with pytest.raises(error):
        blockwise_attention(q, k, v, **kwargs)


def peak_bytes(function, *args, **kwargs):
    """Peak bytes traced by tracemalloc during one call (inputs made before)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        function(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_blockwise_memory_does_not_grow_like_n_squared(rng):
    """Memory, not time: at n = 1024 one n x n float64 matrix is 8 MiB."""
    n, d = 1024, 16
    q, k, v = qkv(rng, (), n, n, d, d)
    plain = peak_bytes(plain_attention, q, k, v)
    blockwise = peak_bytes(blockwise_attention, q, k, v, block_size=64, key_block_size=128)
    default = peak_bytes(scaled_dot_product_attention, q, k, v)
    assert plain >= n * n * 8
    assert blockwise <= 64 * 128 * 8 + 4 * n * d * 8  # one score block + O(n d) (output, row state)
    assert default < n * n * 8 / 2


def loop_attention(q, k, v):
    """A loop per query row over the keys, with its own exact max: the independent reference."""
    out = np.empty((q.shape[0], v.shape[1]))
    for i in range(q.shape[0]):
        scores = np.array([q[i] @ k[j] / math.sqrt(q.shape[1]) for j in range(k.shape[0])])
        weights = np.exp(scores - scores.max())
        out[i] = weights @ v / weights.sum()
    return out


@pytest.mark.parametrize("late", [True, False])
def test_running_bound_rescales_when_a_longer_key_arrives(rng, late):
    """Unmasked, the shift is |q_i| times the largest key norm seen so far. A key ten times longer
    than the rest, in the last block (the bound rises there: everything before is rescaled) or in
    the first (the bound never moves), changes nothing but rounding."""
    q, k, v = qkv(rng, (), 9, 12, 4, 3)
    k[-1 if late else 0] *= 10.0
    out = blockwise_attention(q, k, v, block_size=4, key_block_size=5)
    np.testing.assert_allclose(out, loop_attention(q, k, v), rtol=0, atol=1e-12)


def test_running_bound_per_batch_entry(rng):
    """The bound rises at a different key block in each batch entry (and never in one)."""
    q, k, v = qkv(rng, (3,), 6, 15, 4, 2)
    k[0, 14] *= 8.0  # last block
    k[1, 7] *= 8.0  # middle block
    out = blockwise_attention(q, k, v, block_size=4, key_block_size=5)
    for b in range(3):
        np.testing.assert_allclose(out[b], loop_attention(q[b], k[b], v[b]), rtol=0, atol=1e-12)


def test_unmasked_blocks_fall_back_only_when_the_bound_is_loose(monkeypatch, rng):
    """The exact running maximum is taken for a query block only when one of its rows' bounded sums
    all but underflows; ordinary inputs never need it."""
    import attn.kernels

    calls = []
    exact_rows = attn.kernels.exact_rows
    monkeypatch.setattr(attn.kernels, "exact_rows", lambda *a: calls.append(1) or exact_rows(*a))
    q, k, v = qkv(rng, (), 20, 20, 4, 3)
    blockwise_attention(q, k, v, block_size=8, key_block_size=8)
    assert calls == []
    q = np.zeros((5, 4))
    q[:, 1:] = rng.standard_normal((5, 3)) * 1e3  # orthogonal to the one long key: bound ~1e7 too high
    k[0] = [1e4, 0.0, 0.0, 0.0]
    out = blockwise_attention(q, k, v, block_size=2, key_block_size=8)
    assert len(calls) == 3  # every query block (2 + 2 + 1 rows) recomputed
    np.testing.assert_allclose(out, loop_attention(q, k, v), rtol=0, atol=1e-12)


@pytest.mark.parametrize("dtype, tolerance", [(np.float64, 1e-12), (np.float32, 1e-6)])
@pytest.mark.parametrize("gap", [5.0, 30.0, 100.0, 103.0, 800.0])
def test_a_loose_bound_costs_no_accuracy_in_either_precision(dtype, tolerance, gap):
    """Each query is at right angles to one long key, so the shift |q_i| max_j |k_j| sits ``gap``
    above every real score. In float32 a gap of about 100 already pushes the exponentials below the
    smallest normal number (weights off by 0.26 before the threshold depended on the dtype)."""
    rng = np.random.default_rng(7)
    q = np.zeros((5, 4))
    q[:, 1:] = rng.standard_normal((5, 3))
    q /= np.linalg.norm(q, axis=1, keepdims=True)  # |q_i| = 1; scaled by 1/sqrt(4), |q_i| / 2
    k = np.zeros((6, 4))
    k[:, 1:] = rng.standard_normal((6, 3))
    k[0] = [2.0 * gap, 0.0, 0.0, 0.0]  # |q_i| / 2 * |k_0| = gap
    v = rng.standard_normal((6, 3))
    reference = softmax(q @ k.T / 2.0) @ v
    q32, k32, v32 = (a.astype(dtype) for a in (q, k, v))
    for out in (
        scaled_dot_product_attention(q32, k32, v32),
        blockwise_attention(q32, k32, v32, block_size=2, key_block_size=4),
    ):
        assert out.dtype == dtype
        assert np.max(np.abs(out - reference)) <= tolerance
