"""The fast kernels behind scaled_dot_product_attention and blockwise_attention.

Taught on: docs/implementation-notes.md

Both compute the equation attn.core teaches, softmax(Q K^T / sqrt(d_k)) V, with the same numbers up
to rounding (<= 1e-12 in float64), and neither ever holds the n_q x n_k score matrix:

    query_block_attention     the default: QUERY_BLOCK query rows at a time against all the keys
    online_softmax_attention  a block of query rows against a block of keys at a time, with the
                              online softmax (Rabe & Staats 2021; Dao et al. 2022, FlashAttention)

Where the time goes, and what is saved: 1/sqrt(d_k) scales Q (n_q * d_k multiplies, not n_q * n_k);
exponentials are taken in place in a score block that stays in cache; row sums are a
matrix-vector product; the (n_q, d_v) output is divided by the row sums instead of normalising
the weights. Without a mask, no pass over the scores looks for a row's maximum either: each row is
shifted by an upper bound of its scores instead, m_i = |q_i| max_j |k_j| (Cauchy-Schwarz, q_i
scaled by 1/sqrt(d_k)), which rides along in the score product as one more column,
[q_i, -m_i] . [k_j, 1] = q_i . k_j - m_i. Softmax does not change when a row is shifted.

What they guarantee, row by row. Every decision looks at one query row only, so a nan or inf in one
row of q, k or v reaches only the rows that depend on it (its own query row; the rows that may see
that key), and every other row is the one the equation gives:

* A bound too loose for the dtype (its row's exponentials sum to less than ``loose_bound(dtype)``,
  or to nan or inf) sends that row, and only that row, to the exact path: the row shifted by its
  own maximum. With a mask every row takes the exact path, over the keys it may see, so a masked
  key has no influence at all, not even on rounding.
* A masked key's value is never read (a matrix product alone would add 0 * nan = nan).
* A fully masked row gets zero weights and a zero output. A row whose scores overflow the dtype
  though its inputs are finite raises ValueError (``attn._validate.check_rows_no_overflow``).
* No floating-point warnings: nan and inf inputs give nan or inf in the rows that depend on them.

The inputs are those ``attn._validate.attention_inputs`` returns: q, k, v of one floating dtype,
mask None or bool (..., n_q or 1, n_k or 1), True = may attend.
"""

import math
from dataclasses import dataclass, fields

import numpy as np

from ._validate import check_rows_no_overflow

#: Query rows per block of :func:`query_block_attention`. A (128, n_k) float64 score block is 1 MiB
#: at n_k = 1024: it stays in cache.
QUERY_BLOCK = 128

#: In float64, a row whose bounded exponentials sum to less than this (about e^-598) is recomputed
#: with its exact maximum: its bound was too loose to keep every weight exact. Narrower floats use
#: their machine epsilon instead (see :func:`loose_bound`).
LOOSE_BOUND = 1e-260


def query_block_attention(q, k, v, mask=None, block_size=QUERY_BLOCK):
    """softmax(q k^T / sqrt(d_k)) v, ``block_size`` query rows at a time against every key.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v), mask: None or bool
    (..., n_q or 1, n_k or 1), True = may attend -> (..., n_q, d_v)

    Holds one (..., block_size, n_k) score block, the scaled queries and the keys with one more
    column each, and O(n_q) row sums: never n_q x n_k.

    >>> query_block_attention(np.ones((4, 2)), np.ones((3, 2)), np.ones((3, 5)), block_size=2).shape
    (4, 5)
    """
    batch = batch_shape(q, k, v, mask)
    n_q, n_k, d_k, d_v = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    rows = max(1, min(block_size, n_q))
    loose = loose_bound(q.dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # nan and inf stay in the rows that depend on them
        q_shifted, k_shifted_t = shifted_operands(q, k, 1.0 / math.sqrt(d_k), batch, bounded=mask is None)
        q_scaled = q_shifted[..., :d_k]  # (..., n_q, d_k), a view: q / sqrt(d_k)
        k_t = k.swapaxes(-1, -2)  # (..., d_k, n_k), a view
        values = Values(v, mask)
        out = np.empty(batch + (n_q, d_v), dtype=q.dtype)
        row_sum = np.empty(batch + (n_q, 1), dtype=q.dtype)
        strip = ScoreStrip(batch, rows, n_k, q.dtype)
        for start in range(0, n_q, rows):
            stop = min(start + rows, n_q)
            o, l = out[..., start:stop, :], row_sum[..., start:stop, :]  # (..., b, d_v), (..., b, 1): views
            mask_rows = query_rows(mask, start, stop)  # (..., b or 1, n_k or 1)
            q_rows = q_scaled[..., start:stop, :]  # (..., b, d_k)
            if mask is None:
                p = strip.scores(q_shifted[..., start:stop, :], k_shifted_t)  # scores minus each row's bound: <= 0
                np.exp(p, out=p)
                np.matmul(p, strip.ones, out=l)  # row sums as a matrix-vector product
                np.matmul(p, v, out=o)
                redo_rows(needs_exact(l, loose), o, l, exact_block, q_rows, k_t, values, None, strip, o, l)
            else:
                exact_block(q_rows, k_t, values, mask_rows, strip, o, l)
            check_rows_no_overflow(l, q[..., start:stop, :], k, mask_rows, first_row=start)
        divide_by_row_sum(out, row_sum)
    return out


def exact_block(q_rows, k_t, values, mask_rows, strip, o, l):
    """One block of query rows, each shifted by its exact maximum over the keys it may see.

    q_rows: (..., b, d_k) scaled queries, k_t: (..., d_k, n_k), values: :class:`Values` of v
    (..., n_k, d_v), mask_rows: None or bool (..., b or 1, n_k or 1), True = may attend, strip:
    :class:`ScoreStrip`, o: (..., b, d_v) and l: (..., b, 1) buffers we own -> None; o receives the
    unnormalised output and l the row sums.
    """
    p = strip.scores(q_rows, k_t)  # (..., b, n_k)
    if mask_rows is not None:
        np.copyto(p, -np.inf, where=~mask_rows)
    exp_minus_row_max(p, strip.row_max(p))
    np.matmul(p, strip.ones, out=l)  # row sums as a matrix-vector product
    values.weighted_sum(p, mask_rows, out=o)


def online_softmax_attention(q, k, v, mask, block_size, key_block_size):
    """softmax(q k^T / sqrt(d_k)) v by the online softmax: query blocks against key blocks.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v), mask: None or bool
    (..., n_q or 1, n_k or 1), True = may attend, block_size, key_block_size: ints >= 1
    -> (..., n_q, d_v)

    For each block of query rows it keeps, per row, a shift m, a running sum of exponentials l and a
    running weighted sum of values o (:class:`RowState`); when a key block moves the shift from m
    to m_new, l and o are rescaled by exp(m - m_new). Without a mask m is the running bound
    |q_i| R_j, R_j the longest key in key blocks 0..j (:func:`bounded_rows`); with a mask it is the
    exact running maximum (:func:`exact_rows`). Holds one (..., block_size, key_block_size) score
    block, the keys with a column of ones, and O(block_size * (d_k + d_v)) row state.

    >>> online_softmax_attention(np.ones((4, 2)), np.ones((3, 2)), np.ones((3, 5)), None, 2, 2).shape
    (4, 5)
    """
    batch = batch_shape(q, k, v, mask)
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    scale = 1.0 / math.sqrt(q.shape[-1])
    loose = loose_bound(q.dtype)
    key_blocks = [(start, min(start + key_block_size, n_k)) for start in range(0, n_k, key_block_size)]
    with np.errstate(over="ignore", invalid="ignore"):  # nan and inf stay in the rows that depend on them
        out = np.empty(batch + (n_q, d_v), dtype=q.dtype)
        work = Workspace(batch, min(block_size, max(n_q, 1)), min(key_block_size, n_k), q, v)
        bounds = None if mask is not None else KeyBounds.of(k, key_blocks)
        values = Values(v, mask)
        for start in range(0, n_q, block_size):
            stop = min(start + block_size, n_q)
            q_rows = q[..., start:stop, :]  # (..., b, d_k)
            o = out[..., start:stop, :]  # (..., b, d_v), accumulated in place
            state = work.rows(stop - start)
            mask_rows = query_rows(mask, start, stop)  # (..., b or 1, n_k or 1)
            if bounds is None:
                exact_rows(q_rows, scale, k, values, mask_rows, key_blocks, o, state, work)
            else:
                bounded_rows(q_rows, scale, bounds, v, o, state, work)
                redo = needs_exact(state.l, loose)
                redo_rows(redo, o, state.l, exact_rows, q_rows, scale, k, values, None, key_blocks, o, state, work)
            check_rows_no_overflow(state.l, q_rows, k, mask_rows, first_row=start)
            divide_by_row_sum(o, state.l)
    return out


# ------------------------------------------------------- shared by both --


def loose_bound(dtype):
    """The smallest row sum of bounded exponentials accepted for ``dtype`` -> float.

    A bound m above a row's true maximum costs twice: weights that fall below the smallest normal
    number lose precision, and every shifted score carries a rounding error of about eps * m. In
    float64 a row sum down to ``LOOSE_BOUND`` (a gap of up to ~598) keeps both far below 1e-12.
    Narrower floats have too short an exponent range and too large an eps for that: they accept a
    row sum down to their eps (a gap of at most ~16 in float32, ~7 in float16), which keeps the
    error within a few eps.

    >>> loose_bound(np.dtype(np.float64)), loose_bound(np.dtype(np.float16))
    (1e-260, 0.0009765625)
    """
    return LOOSE_BOUND if dtype == np.float64 else float(np.finfo(dtype).eps)


def needs_exact(row_sum, loose):
    """Which rows' bounded results cannot be kept: a row sum below ``loose``, nan or inf.

    row_sum: (..., b, 1) -> bool (..., b, 1). Looks at each row alone.

    >>> needs_exact(np.array([[1.0], [1e-300], [np.nan], [np.inf]]), 1e-260)[:, 0].tolist()
    [False, True, True, True]
    """
    return ~np.isfinite(row_sum) | (row_sum < loose)


def redo_rows(redo, o, l, exact, *args):
    """In place: the rows of o and l where ``redo`` is True take the results of ``exact(*args)``.

    redo: bool (..., b, 1), o: (..., b, d_v), l: (..., b, 1) buffers we own, exact: the exact path,
    which overwrites o and l for the whole block -> None. Every other row keeps its value, bit for
    bit. Costs nothing when no row needs it.
    """
    if not redo.any():
        return
    kept_o, kept_l = o.copy(), l.copy()
    exact(*args)
    np.copyto(o, kept_o, where=~redo)
    np.copyto(l, kept_l, where=~redo)


def shifted_operands(q, k, scale, batch, bounded=True):
    """Scaled queries with a column for the shift, and keys with a column of ones.

    q: (..., n_q, d_k), k: (..., n_k, d_k)
    -> q_shifted (batch..., n_q, d_k + 1) = [q * scale, -m] with m_i = |q_i * scale| max_j |k_j|,
       k_shifted_t (..., d_k + 1, n_k) = [k, 1]^T,
    so that q_shifted @ k_shifted_t = scale * q k^T - m. Norms are taken in float64, so a narrow
    dtype does not overflow on them; a shift beyond the dtype becomes -inf, and its row takes the
    exact path. When ``bounded`` is False the last column of q_shifted is left unset and
    k_shifted_t is None.

    >>> q_shifted, k_shifted_t = shifted_operands(np.ones((2, 3)), np.ones((4, 3)), 1.0, ())
    >>> q_shifted.shape, k_shifted_t.shape, (q_shifted @ k_shifted_t).max().round(12)
    ((2, 4), (4, 4), np.float64(0.0))
    """
    n_q, d_k = q.shape[-2:]
    q_shifted = np.empty(batch + (n_q, d_k + 1), dtype=q.dtype)
    q_scaled = q_shifted[..., :d_k]  # (..., n_q, d_k), a view
    np.multiply(q, scale, out=q_scaled)
    if not bounded:
        return q_shifted, None
    k_norm_max = np.sqrt(np.vecdot(k, k, dtype=np.float64).max(axis=-1))[..., None]  # (..., 1)
    q_norm = np.sqrt(np.vecdot(q_scaled, q_scaled, dtype=np.float64))  # (..., n_q)
    np.multiply(q_norm, -k_norm_max, out=q_shifted[..., d_k])
    return q_shifted, with_ones_column(k).swapaxes(-1, -2)  # (..., d_k + 1, n_k), a view


def with_ones_column(k):
    """k: (..., n_k, d_k) -> [k, 1]: (..., n_k, d_k + 1), a new array.

    >>> with_ones_column(np.zeros((2, 1))).tolist()
    [[0.0, 1.0], [0.0, 1.0]]
    """
    return np.concatenate([k, np.ones(k.shape[:-1] + (1,), dtype=k.dtype)], axis=-1)  # (..., n_k, d_k + 1)


def exp_minus_row_max(scores, row_max):
    """In place: scores <- exp(scores - max of its row); row_max receives the max.

    scores: (..., b, n) buffer we own, row_max: (..., b, 1) buffer -> None. A row of -inf (fully
    masked) is shifted by 0, so it becomes exact zeros; a nan score is passed over by the max and
    makes its own row nan.

    >>> scores, row_max = np.array([[1.0, 3.0], [-np.inf, -np.inf]]), np.empty((2, 1))  # (b, n), (b, 1)
    >>> exp_minus_row_max(scores, row_max)
    >>> scores.round(3).tolist(), row_max.tolist()
    ([[0.135, 1.0], [0.0, 0.0]], [[3.0], [0.0]])
    """
    np.fmax.reduce(scores, axis=-1, keepdims=True, out=row_max)
    np.copyto(row_max, 0.0, where=np.isneginf(row_max))
    np.subtract(scores, row_max, out=scores)
    np.exp(scores, out=scores)


def divide_by_row_sum(out, row_sum):
    """In place: out <- out / row_sum; a row sum of 0 (fully masked, or every score -inf) leaves zeros.

    out: (..., b, d_v) buffer we own, row_sum: (..., b, 1) buffer we own -> None. Any other row
    sum is at least ``loose_bound`` (or nan, passed on), far above the floor put under it.

    >>> out, row_sum = np.array([[2.0, 4.0], [0.0, 0.0]]), np.array([[2.0], [0.0]])  # (b, d_v), (b, 1)
    >>> divide_by_row_sum(out, row_sum)
    >>> out.tolist()
    [[1.0, 2.0], [0.0, 0.0]]
    """
    np.maximum(row_sum, np.finfo(row_sum.dtype).tiny, out=row_sum)
    out /= row_sum


def batch_shape(q, k, v, mask):
    """Broadcast shape of the leading ``...`` axes of q, k, v and the mask -> tuple.

    >>> batch_shape(np.ones((2, 1, 3, 4)), np.ones((5, 3, 4)), np.ones((5, 3, 4)), None)
    (2, 5)
    """
    shapes = [q.shape[:-2], k.shape[:-2], v.shape[:-2]]
    if mask is not None:
        shapes.append(mask.shape[:-2])
    return tuple(np.broadcast_shapes(*shapes))


def query_rows(mask, start, stop):
    """Rows start:stop of a broadcastable mask (an axis of size 1 stays whole), or None.

    mask: None or (..., n_q or 1, n_k or 1) -> None or (..., stop - start or 1, n_k or 1)

    >>> query_rows(np.ones((5, 3), bool), 1, 3).shape, query_rows(np.ones((1, 3), bool), 1, 3).shape
    ((2, 3), (1, 3))
    """
    if mask is None or mask.shape[-2] == 1:
        return mask
    return mask[..., start:stop, :]


def key_columns(mask, start, stop):
    """Columns start:stop of a broadcastable mask (an axis of size 1 stays whole), or None.

    mask: None or (..., b or 1, n_k or 1) -> None or (..., b or 1, stop - start or 1)

    >>> key_columns(np.ones((2, 5), bool), 1, 3).shape
    (2, 2)
    """
    if mask is None or mask.shape[-1] == 1:
        return mask
    return mask[..., start:stop]


class Values:
    """The values as the kernels read them: a row reads a key's value only if it may see that key.

    The product p @ v alone would add 0 * v_j for a masked key j, which is nan when v_j holds a nan
    or an inf. So when a mask is given and a value is not finite, the product runs on the finite
    part of v (nan and inf read as 0), and the rest is added back for the rows that may see it, as
    IEEE arithmetic gives it to those rows: a weight times nan is nan, 0 * inf is nan, a positive
    weight times +-inf is +-inf, and inf - inf is nan. Without a mask, or with every value finite,
    this is p @ v itself. (The online softmax applies this per key block and rescales as it goes:
    an inf whose final weight underflows to 0 may stay inf there where the equation gives nan.)
    """

    def __init__(self, v, mask):
        self.v = v  # (..., n_k, d_v)
        self.finite = v
        self.nonfinite = None
        if mask is not None:
            finite = np.isfinite(v)  # (..., n_k, d_v)
            if not finite.all():
                self.finite = np.where(finite, v, 0)  # (..., n_k, d_v)
                self.nonfinite = (np.isnan(v), np.isposinf(v), np.isneginf(v))  # each bool (..., n_k, d_v)

    def weighted_sum(self, p, mask_rows, out, start=0, stop=None):
        """out <- p @ v[start:stop] over the keys each row may see.

        p: (..., b, b_k) weights (0 where masked), mask_rows: None or bool (..., b or 1, n_k or 1),
        True = may attend, out: (..., b, d_v) buffer we own -> out
        """
        np.matmul(p, self.finite[..., start:stop, :], out=out)
        if self.nonfinite is None:
            return out
        nan, up, down = (x[..., start:stop, :].astype(p.dtype) for x in self.nonfinite)  # (..., b_k, d_v)
        sees = np.broadcast_to(key_columns(mask_rows, start, stop), p.shape)  # (..., b, b_k)
        weighted = (p > 0).astype(p.dtype)  # (..., b, b_k): seen with a positive weight
        unweighted = (sees & ~(p > 0)).astype(p.dtype)  # seen with weight 0 (underflow)
        np.add(out, np.inf, out=out, where=(weighted @ up) > 0)
        np.add(out, -np.inf, out=out, where=(weighted @ down) > 0)
        np.copyto(out, np.nan, where=(sees.astype(p.dtype) @ nan + unweighted @ (up + down)) > 0)
        return out


class ScoreStrip:
    """The score buffer of :func:`query_block_attention`, allocated once per call.

    Views of ``batch + (b, n_k)`` for any block height b <= rows; a row-maximum buffer; a column
    of ones for row sums as a matrix-vector product.
    """

    def __init__(self, batch, rows, n_k, dtype):
        self.batch = batch
        self.buffer = np.empty(math.prod(batch) * rows * n_k, dtype=dtype)
        self.max_buffer = np.empty(math.prod(batch) * rows, dtype=dtype)
        self.ones = np.ones((n_k, 1), dtype=dtype)

    def scores(self, q_rows, k_t):
        """q_rows @ k_t into the buffer. q_rows: (..., b, d), k_t: (..., d, n_k) -> (..., b, n_k)"""
        shape = self.batch + (q_rows.shape[-2], k_t.shape[-1])
        return np.matmul(q_rows, k_t, out=self.buffer[: math.prod(shape)].reshape(shape))  # (..., b, n_k)

    def row_max(self, p):
        """A (..., b, 1) buffer for the row maxima of p: (..., b, n_k)."""
        shape = p.shape[:-1] + (1,)
        return self.max_buffer[: math.prod(shape)].reshape(shape)  # (..., b, 1)


# ----------------------------------------------- the online softmax only --


@dataclass
class RowState:
    """The online softmax's per-row quantities for one block of b query rows, each (..., b, 1).

    The three running quantities of the algorithm are m, l (here) and o (the output rows).
    """

    m: np.ndarray  # the shift so far: exact running maximum, or running bound |q_i| R_j
    l: np.ndarray  # running sum of exp(score - m)
    m_new: np.ndarray  # the shift after the current key block
    shift: np.ndarray  # m_new, with -inf (no key seen yet) replaced by 0
    correction: np.ndarray  # exp(m - m_new): rescales l and o when the shift moves
    block_sum: np.ndarray  # rowsum of the current key block's exponentials
    q_norm: np.ndarray  # |q_i / sqrt(d_k)|, in float64: the bound's factor


@dataclass
class KeyBounds:
    """What the bounded path needs from the keys, computed once per call.

    keys: (..., n_k, d_k + 1), the keys with a column of ones; key_blocks: [(start, stop), ...];
    running_norm: (..., n_blocks) float64, R_j, the longest key in key blocks 0..j;
    grows: (n_blocks,) bool, whether R rises at block j for any batch entry (always at block 0).
    """

    keys: np.ndarray
    key_blocks: list
    running_norm: np.ndarray
    grows: np.ndarray

    @classmethod
    def of(cls, k, key_blocks):
        """k: (..., n_k, d_k), key_blocks: [(start, stop), ...] -> KeyBounds"""
        norms = np.sqrt(np.vecdot(k, k, dtype=np.float64))  # (..., n_k)
        block_max = np.maximum.reduceat(norms, [start for start, _ in key_blocks], axis=-1)  # (..., n_blocks)
        running_norm = np.maximum.accumulate(block_max, axis=-1)  # (..., n_blocks)
        rises = np.diff(running_norm, axis=-1) > 0  # (..., n_blocks - 1)
        grows = np.concatenate([[True], rises.any(axis=tuple(range(rises.ndim - 1)))])  # (n_blocks,)
        return cls(with_ones_column(k), key_blocks, running_norm, grows)


class Workspace:
    """Memory for one block of query rows of :func:`online_softmax_attention`, reused by every block.

    Every array it hands out is a contiguous view of memory it owns, so the in-place updates never
    touch the caller's arrays. Views are cached per block height b (only the last query block can
    be shorter).
    """

    def __init__(self, batch, rows, key_rows, q, v):
        self.batch = batch
        size = math.prod(batch) * rows
        self.query = np.empty(math.prod(q.shape[:-2]) * rows * q.shape[-1], dtype=q.dtype)
        self.shifted_query_buffer = np.empty(size * (q.shape[-1] + 1), dtype=q.dtype)
        self.score = np.empty(size * key_rows, dtype=q.dtype)
        self.value = np.empty(size * v.shape[-1], dtype=q.dtype)
        self.row_stats = np.empty((len(fields(RowState)) - 1, size), dtype=q.dtype)  # every field but q_norm
        self.q_norm = np.empty(size, dtype=np.float64)
        self.ones = np.ones((key_rows, 1), dtype=q.dtype)
        self.rows_of = {}

    def rows(self, b):
        """The :class:`RowState` of a block of b query rows: (..., b, 1) views."""
        if b not in self.rows_of:
            shape = self.batch + (b, 1)
            size = math.prod(shape)
            m, l, m_new, shift, correction, block_sum = (r[:size].reshape(shape) for r in self.row_stats)  # (..., b, 1)
            q_norm = self.q_norm[:size].reshape(shape)  # (..., b, 1)
            self.rows_of[b] = RowState(m, l, m_new, shift, correction, block_sum, q_norm)
        return self.rows_of[b]

    def scaled_query(self, q_rows, scale):
        """q_rows * scale into the query buffer. q_rows: (..., b, d_k) -> (..., b, d_k)"""
        q_block = self.query[: q_rows.size].reshape(q_rows.shape)  # (..., b, d_k)
        return np.multiply(q_rows, scale, out=q_block)

    def shifted_query(self, q_rows, scale, q_norm):
        """[q_rows * scale, (shift, unset)], and q_norm <- |q_rows * scale| in float64.

        q_rows: (..., b, d_k), q_norm: (..., b, 1) -> (batch..., b, d_k + 1)
        """
        b, d_k = q_rows.shape[-2:]
        shape = self.batch + (b, d_k + 1)
        q_block = self.shifted_query_buffer[: math.prod(shape)].reshape(shape)  # (..., b, d_k + 1)
        q_scaled = q_block[..., :d_k]  # (..., b, d_k), a view
        np.multiply(q_rows, scale, out=q_scaled)
        np.sqrt(np.vecdot(q_scaled, q_scaled, dtype=np.float64)[..., None], out=q_norm)
        return q_block

    def scores(self, q_block, k_block):
        """q_block k_block^T into the score buffer. q_block: (..., b, d), k_block: (..., b_k, d) -> (..., b, b_k)"""
        shape = self.batch + (q_block.shape[-2], k_block.shape[-2])
        p = self.score[: math.prod(shape)].reshape(shape)  # (..., b, b_k)
        return np.matmul(q_block, k_block.swapaxes(-1, -2), out=p)

    def row_sums(self, p, out):
        """Sum of each row of p as a matrix-vector product. p: (..., b, b_k), out: (..., b, 1) -> out"""
        return np.matmul(p, self.ones[: p.shape[-1]], out=out)

    def value_buffer(self, b, d_v):
        """A (..., b, d_v) buffer for one key block's weighted values."""
        shape = self.batch + (b, d_v)
        return self.value[: math.prod(shape)].reshape(shape)  # (..., b, d_v)


def exact_rows(q_rows, scale, k, values, mask_rows, key_blocks, o, state, work):
    """The online softmax of one block of query rows, with the exact running maximum.

    q_rows: (..., b, d_k), k: (..., n_k, d_k), values: :class:`Values` of v (..., n_k, d_v),
    mask_rows: None or bool (..., b or 1, n_k or 1), True = may attend, o: (..., b, d_v) buffer we
    own, state: :class:`RowState` -> None; o holds the unnormalised output and state.l the row sums.
    """
    q_block = work.scaled_query(q_rows, scale)  # (..., b, d_k)
    state.m.fill(-np.inf)
    state.l.fill(0.0)
    o.fill(0.0)
    for k_start, k_stop in key_blocks:
        p = work.scores(q_block, k[..., k_start:k_stop, :])  # (..., b, b_k)
        columns = key_columns(mask_rows, k_start, k_stop)  # (..., b or 1, b_k or 1)
        if columns is not None:
            np.copyto(p, -np.inf, where=~columns)
        exp_minus_running_max(p, state)
        rescale_and_add(state.l, state.correction, work.row_sums(p, state.block_sum))
        weighted = values.weighted_sum(p, mask_rows, work.value_buffer(p.shape[-2], o.shape[-1]), k_start, k_stop)
        rescale_and_add(o, state.correction, weighted)


def bounded_rows(q_rows, scale, bounds, v, o, state, work):
    """The online softmax of one block of query rows, shifted by a running upper bound.

    q_rows: (..., b, d_k), bounds: :class:`KeyBounds`, v: (..., n_k, d_v), o: (..., b, d_v)
    buffer we own, state: :class:`RowState` -> None; o holds the unnormalised output and state.l
    the row sums.

    After key blocks 0..j the shift of row i is m_i = |q_i| R_j, where R_j is the longest key in
    those blocks; by Cauchy-Schwarz no score seen so far exceeds it. The shift rides along in the
    score product, [q_i, -m_i] . [k_j, 1] = q_i . k_j - m_i, so the block is exponentiated in place
    with no pass for its maximum. When R grows, l and o are rescaled by exp(m - m_new) =
    exp(|q_i| (R_old - R_new)), as in the online softmax.
    """
    q_block = work.shifted_query(q_rows, scale, state.q_norm)  # (..., b, d_k + 1)
    shift = q_block[..., -1:]  # (..., b, 1), a view: -m
    for j, (k_start, k_stop) in enumerate(bounds.key_blocks):
        if j == 0 or bounds.grows[j]:
            norm = bounds.running_norm[..., j, None, None]  # (..., 1, 1): R_j
            np.multiply(state.q_norm, -norm, out=shift)  # -m_new
            if j > 0:  # correction = exp(m - m_new) = exp(|q| (R_old - R_new))
                np.multiply(state.q_norm, bounds.running_norm[..., j - 1, None, None] - norm, out=state.correction)
                np.exp(state.correction, out=state.correction)
                state.l *= state.correction
                o *= state.correction
        p = work.scores(q_block, bounds.keys[..., k_start:k_stop, :])  # (..., b, b_k), scores minus m: all <= 0
        np.exp(p, out=p)
        v_block = v[..., k_start:k_stop, :]  # (..., b_k, d_v)
        if j == 0:
            work.row_sums(p, state.l)
            np.matmul(p, v_block, out=o)
        else:
            state.l += work.row_sums(p, state.block_sum)
            o += np.matmul(p, v_block, out=work.value_buffer(p.shape[-2], o.shape[-1]))


def exp_minus_running_max(p, state):
    """In place: m <- max(m, rowmax(p)), p <- exp(p - m) and correction <- exp(m_old - m).

    p: (..., b, b_k) score block we own, state: :class:`RowState` -> None. Rows still entirely
    -inf are shifted by 0, so they stay exact zeros and no nan appears.
    """
    np.fmax.reduce(p, axis=-1, keepdims=True, out=state.m_new)
    np.fmax(state.m_new, state.m, out=state.m_new)
    np.copyto(state.shift, state.m_new)
    np.copyto(state.shift, 0.0, where=np.isneginf(state.shift))
    np.subtract(state.m, state.shift, out=state.correction)
    np.exp(state.correction, out=state.correction)  # exp(-inf) = 0 on the first block
    np.subtract(p, state.shift, out=p)
    np.exp(p, out=p)
    np.copyto(state.m, state.m_new)


def rescale_and_add(total, correction, term):
    """In place: total <- correction * total + term (all buffers we own). -> None"""
    total *= correction
    total += term
