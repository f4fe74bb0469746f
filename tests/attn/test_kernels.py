"""attn.kernels: the fast paths keep a bad value (nan, inf) in the rows that depend on it,
and recompute only the rows whose bound is loose."""

import math

import numpy as np
import pytest

from attn.blockwise import blockwise_attention, plain_attention
from attn.core import scaled_dot_product_attention, softmax

N_Q, N_K, D_K, D_V = 300, 200, 8, 5

BAD_ROW = 130  # the third row of the second block of 128 query rows (default) or 64 (blockwise below)

TEXTBOOK_TOLERANCE = {np.float64: 1e-12, np.float32: 2e-6, np.float16: 4e-3}


def default(q, k, v, mask=None):
    """scaled_dot_product_attention without weights: the query-block kernel."""
    return scaled_dot_product_attention(q, k, v, mask)


def blockwise(q, k, v, mask=None):
    """blockwise_attention with several query and key blocks."""
    return blockwise_attention(q, k, v, mask, block_size=64, key_block_size=48)


def textbook_rows(q, k, v, mask, rows):
    """Output rows ``rows`` of softmax(q k^T / sqrt(d_k)) v in float64, one row at a time, masked keys skipped."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    out = np.zeros((len(rows), v.shape[1]))
    for row, i in enumerate(rows):
        seen = np.ones(len(k), dtype=bool) if mask is None else mask[i]
        if not seen.any():
            continue  # a fully masked row: zeros, the documented choice
        scores = k[seen] @ q[i] / math.sqrt(q.shape[1])  # (keys seen,)
        weights = np.exp(scores - scores.max())
        out[row] = weights @ v[seen] / weights.sum()
    return out


def inputs(dtype, masked):
    """q (N_Q, D_K), k (N_K, D_K), v (N_K, D_V) of ``dtype``, and a mask (N_Q, N_K) or None.

    The mask lets about half the keys through, hides the bad key from about half the rows, and masks
    one row entirely.
    """
    rng = np.random.default_rng(3)
    q, k, v = rng.standard_normal((N_Q, D_K)), rng.standard_normal((N_K, D_K)), rng.standard_normal((N_K, D_V))
    mask = None
    if masked:
        mask = rng.random((N_Q, N_K)) < 0.5
        mask[7] = False
    return q.astype(dtype), k.astype(dtype), v.astype(dtype), mask


def dependent_rows(where, masked_mask):
    """The output rows that depend on row BAD_ROW of ``where`` (q, k or v) -> bool (N_Q,)."""
    rows = np.zeros(N_Q, dtype=bool)
    if where == "q":
        rows[BAD_ROW] = True
    elif masked_mask is None:
        rows[:] = True
    else:
        rows = masked_mask[:, BAD_ROW].copy()
    return rows


@pytest.mark.parametrize("function", [default, blockwise])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
@pytest.mark.parametrize("masked", [False, True], ids=["unmasked", "masked"])
@pytest.mark.parametrize("where", ["q", "k", "v"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
def test_a_bad_value_reaches_only_the_rows_that_depend_on_it(function, dtype, masked, where, bad):
    q, k, v, mask = inputs(dtype, masked)
    clean = function(q, k, v, mask)
    arrays = {"q": q.copy(), "k": k.copy(), "v": v.copy()}
    arrays[where][BAD_ROW, 1] = bad
    out = function(arrays["q"], arrays["k"], arrays["v"], mask)
    assert out.dtype == dtype
    depend = dependent_rows(where, mask)
    others = np.flatnonzero(~depend)
    if where != "q" and not masked:
        assert others.size == 0  # every row sees every key
    else:
        assert others.size > 50
    np.testing.assert_array_equal(out[others], clean[others])  # bit for bit
    reference = textbook_rows(q, k, v, mask, others)
    np.testing.assert_allclose(out[others], reference, rtol=0, atol=TEXTBOOK_TOLERANCE[dtype])
    if where == "v":  # a value reaches only its own column: the other columns of every row are untouched
        columns = [c for c in range(D_V) if c != 1]
        np.testing.assert_array_equal(out[:, columns], clean[:, columns])
    if np.isnan(bad):  # and a nan is never hidden
        assert np.isnan(out[depend][:, 1] if where == "v" else out[depend]).all()


@pytest.mark.parametrize("function", [default, blockwise])
@pytest.mark.parametrize("dtype, spread, tolerance", [(np.float64, 10.0, 1e-12), (np.float32, 2.0, 1e-5)])
def test_one_nan_row_among_many_poisons_no_other_row(function, dtype, spread, tolerance):
    """One nan query row among 256, with scores spread so wide that many rows' bounds are too loose for
    the dtype: every other row keeps its textbook value. (Deciding per block, the nan row sum hid the
    other rows' need for the exact path: over a hundred rows came out nan in float32, dozens in float64.)"""
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((256, 64)) for _ in range(3))
    q, k, v = (q * spread).astype(dtype), (k * spread).astype(dtype), v.astype(dtype)
    clean = function(q, k, v)
    q[17, 3] = np.nan
    out = function(q, k, v)
    assert np.isnan(out[17]).all()
    others = np.delete(np.arange(256), 17)
    np.testing.assert_array_equal(out[others], clean[others])
    np.testing.assert_allclose(out[others], textbook_rows(q, k, v, None, others), rtol=0, atol=tolerance)


@pytest.mark.parametrize("function", [default, blockwise])
def test_a_nan_row_does_not_cancel_another_rows_fallback(function):
    """Row 1's bound is far too loose (its query is at right angles to a long key), so it needs the exact
    path; row 0 is nan. Deciding per block, the nan row sum hid row 1's need and row 1 became 0 / 0."""
    rng = np.random.default_rng(7)
    q = np.zeros((4, 4))
    q[:, 1:] = rng.standard_normal((4, 3)) * 1e3
    q[0, 2] = np.nan
    k = rng.standard_normal((6, 4))
    k[0] = [1e4, 0.0, 0.0, 0.0]
    v = rng.standard_normal((6, 3))
    out = function(q, k, v)
    assert np.isnan(out[0]).all()
    np.testing.assert_allclose(out[1:], textbook_rows(q, k, v, None, range(1, 4)), rtol=0, atol=1e-12)


@pytest.mark.parametrize("function", [default, blockwise])
def test_float16_zero_query_next_to_long_keys(function):
    """Keys longer than 256 have squared norms beyond float16 (65504). A zero query row among them once
    turned every row nan; now every row is finite and matches the textbook."""
    rng = np.random.default_rng(1)
    q = (rng.standard_normal((40, 4)) * 0.05).astype(np.float16)
    q[5] = 0.0
    k = (rng.standard_normal((30, 4)) * 200.0).astype(np.float16)  # norms around 400
    v = rng.standard_normal((30, 3)).astype(np.float16)
    out = function(q, k, v)
    assert out.dtype == np.float16 and np.isfinite(out).all()
    np.testing.assert_allclose(out, textbook_rows(q, k, v, None, range(40)), rtol=0, atol=1e-2)
    np.testing.assert_allclose(out[5], v.astype(np.float64).mean(axis=0), rtol=0, atol=2e-3)  # equal weights


@pytest.mark.parametrize("function", [default, blockwise])
def test_only_the_rows_whose_bound_is_loose_are_recomputed(function):
    """Rows 0 and 2 need the exact path, rows 1 and 3 do not: rows 1 and 3 keep their bounded results, the
    very numbers they get when no neighbour needs the exact path."""
    rng = np.random.default_rng(5)
    k = rng.standard_normal((6, 4))
    k[0] = [50.0, 0.0, 0.0, 0.0]  # one long key
    v = rng.standard_normal((6, 3))
    q = rng.standard_normal((4, 4))
    q[[0, 2], 0] = 0.0
    q[[0, 2]] *= 100.0  # long queries at right angles to the long key: bound ~ 100 * 50 / 2 too high
    alone = function(q[[1, 3]], k, v)
    out = function(q, k, v)
    np.testing.assert_array_equal(out[[1, 3]], alone)
    np.testing.assert_allclose(out, textbook_rows(q, k, v, None, range(4)), rtol=0, atol=1e-12)


def test_the_taught_path_keeps_bad_queries_and_keys_in_their_rows():
    """With return_weights the equation runs as written: a nan query or a nan key the mask hides still
    reaches only its own rows (a nan in a masked key's value reaches every row through 0 * nan)."""
    q, k, v, mask = inputs(np.float64, masked=True)
    _, clean = scaled_dot_product_attention(q, k, v, mask, return_weights=True)
    for where in ("q", "k"):
        arrays = {"q": q.copy(), "k": k.copy()}
        arrays[where][BAD_ROW, 1] = np.nan
        _, weights = scaled_dot_product_attention(arrays["q"], arrays["k"], v, mask, return_weights=True)
        others = ~dependent_rows(where, mask)
        np.testing.assert_array_equal(weights[others], clean[others])


def test_plain_attention_reads_masked_values_as_the_formula_does():
    """plain_attention is the textbook formula: 0 * nan = nan, so a nan value reaches every row, masked or not."""
    q, k, v, mask = inputs(np.float64, masked=True)
    v[BAD_ROW] = np.nan
    with np.errstate(invalid="ignore"):
        assert np.isnan(plain_attention(q, k, v, mask)).all(axis=-1).sum() == N_Q


def test_infinite_values_follow_ieee_in_the_rows_that_see_them():
    """A row that may see a +inf value with a positive weight gives +inf in that column; both signs give nan."""
    q, k, v, mask = inputs(np.float64, masked=True)
    v[10, 0] = np.inf
    v[11, 1], v[12, 1] = np.inf, -np.inf
    out = default(q, k, v, mask)
    sees_10, sees_both = mask[:, 10], mask[:, 11] & mask[:, 12]
    assert np.all(out[sees_10, 0] == np.inf)
    assert np.isnan(out[sees_both, 1]).all()
    np.testing.assert_array_equal(out[:, 2:], default(q, k, np.nan_to_num(v, posinf=0.0, neginf=0.0), mask)[:, 2:])
    neither = ~mask[:, 10] & ~mask[:, 11] & ~mask[:, 12]
    assert neither.sum() > 10 and np.isfinite(out[neither]).all()
    np.testing.assert_array_equal(blockwise(q, k, v, mask)[:, 0] == np.inf, sees_10)


def test_a_fully_masked_row_stays_zero_next_to_nan_values():
    q, k, v, mask = inputs(np.float64, masked=True)
    v[:, 0] = np.nan
    for function in (default, blockwise):
        out = function(q, k, v, mask)
        assert np.all(out[7] == 0.0)
        assert np.isnan(out[mask.any(axis=-1), 0]).all()
        assert np.isfinite(out[:, 1:]).all()


def test_softmax_is_untouched_by_the_kernels():
    """softmax (the taught path) is still the plain formula: a nan slice is nan, other slices unaffected."""
    x = np.array([[1.0, np.nan], [1.0, 2.0]])
    w = softmax(x)
    assert np.isnan(w[0]).all()
    np.testing.assert_allclose(w[1], [1 / (1 + math.e), math.e / (1 + math.e)], rtol=1e-15)
