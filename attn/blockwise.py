"""Attention without the n x n matrix: the online softmax over key blocks.

``plain_attention`` is the textbook formulation that builds the whole
(n_q, n_k) weight matrix; ``blockwise_attention`` gives the same numbers
(to about 1e-15 in float64) while holding only one (block_size,
key_block_size) score block at a time (Rabe & Staats 2021, "Self-attention
does not need O(n^2) memory"; Dao et al. 2022, FlashAttention).

For each block of query rows it keeps, per row, a running maximum m, a
running sum of exponentials l and a running weighted sum of values o. When a
new key block raises the maximum from m to m_new, everything accumulated so
far is rescaled by exp(m - m_new):

    s     = Q_i K_j^T / sqrt(d_k)
    m_new = max(m, rowmax(s))
    p     = exp(s - m_new)
    l     = exp(m - m_new) * l + rowsum(p)
    o     = exp(m - m_new) * o + p V_j
    out_i = o / l                      (after the last key block)

Only m >= rowmax(s) matters, not m = rowmax(s). Without a mask, m_new is
therefore the bound |Q_i / sqrt(d_k)| * (longest key so far), folded into the
score product, so no pass over s looks for its maximum (``_bounded_rows``).

Taught on: docs/07-block-masking-cost.md
"""

import math

import numpy as np

from ._validate import check_int

from .core import (
    _as_float,
    _batch_shape,
    _blocked,
    _check_mask,
    _check_qkv,
    _divide_by_row_sum,
    _empty_aligned,
    _loose_bound,
    _masked,
    _query_rows,
    _with_ones_column,
    softmax,
)


#: Default query rows and key columns per score block of :func:`blockwise_attention`:
#: a (256, 2048) float64 block is 4 MiB, whatever n is.
BLOCK_SIZE = 256
KEY_BLOCK_SIZE = 2048


def plain_attention(q, k, v, mask=None):
    """The textbook formula, materialising every n_q x n_k intermediate.

    softmax(q @ k.swapaxes(-1, -2) / sqrt(d_k)) @ v, with masked scores set to
    -inf. This is the reference the benchmark compares against: simple, and
    slow for large n because it allocates several full score matrices.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    mask: bool broadcastable to (..., n_q, n_k), True = may attend
    -> (..., n_q, d_v)

    Taught on: docs/07-block-masking-cost.md
    """
    q, k, v = _as_float(q, k, v)
    _check_qkv(q, k, v)
    d_k = q.shape[-1]
    return softmax(_masked(q @ k.swapaxes(-1, -2) / math.sqrt(d_k), mask)) @ v


def blockwise_attention(q, k, v, mask=None, block_size=BLOCK_SIZE, key_block_size=KEY_BLOCK_SIZE):
    """softmax(Q K^T / sqrt(d_k)) V by the online softmax, block by block.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    mask: bool broadcastable to (..., n_q, n_k), True = may attend
    -> (..., n_q, d_v), equal to :func:`attn.core.scaled_dot_product_attention`
    up to rounding (<= 1e-12 in float64).

    ``block_size`` query rows meet ``key_block_size`` keys at a time, so the
    extra memory is one (..., block_size, key_block_size) score block, a copy
    of the keys with a column of ones and O(block_size * (d_k + d_v)) row
    state: O(n * block) in all, never O(n_q * n_k). Masked keys get weight
    exactly 0; a fully masked query row gets a zero output. Works in float32
    as well as float64.

    Without a mask, the running maximum m is replaced by a running upper bound
    of it, |q_i| times the largest key norm seen so far (see ``_bounded_rows``):
    any m at or above the true maximum keeps every exponent <= 0, the
    rescaling by exp(m - m_new) is unchanged, and no pass over the scores is
    spent looking for their maximum. With a mask (or when a bound proves too
    loose), every block takes its exact running maximum.

    Taught on: docs/07-block-masking-cost.md
    """
    q, k, v = _as_float(q, k, v)
    _check_qkv(q, k, v)
    block_size = check_int(block_size, "block_size", 1)
    key_block_size = check_int(key_block_size, "key_block_size", 1)
    blocked = _blocked(mask)
    batch = _batch_shape(q, k, v, blocked)
    n_q, n_k = q.shape[-2], k.shape[-2]
    _check_mask(blocked, n_q, n_k)
    scale = 1.0 / math.sqrt(q.shape[-1])
    out = np.empty(batch + (n_q, v.shape[-1]), dtype=q.dtype)
    key_blocks = [(start, min(start + key_block_size, n_k)) for start in range(0, n_k, key_block_size)]
    buffers = _Buffers(batch, min(block_size, max(n_q, 1)), min(key_block_size, n_k), q, v)
    bounds = None if blocked is not None else _KeyBounds(k, key_blocks)
    loose = _loose_bound(q.dtype)
    for start in range(0, n_q, block_size):
        stop = min(start + block_size, n_q)
        o = out[..., start:stop, :]  # (..., b, d_v), accumulated in place
        l = None
        if bounds is not None:
            l = _bounded_rows(q[..., start:stop, :], scale, bounds, v, o, buffers)
        if l is None or l.min() < loose:  # masked, or a bound too loose to keep every weight
            rows_blocked = None if blocked is None else _query_rows(blocked, start, stop)  # (..., b, n_k)
            l = _exact_rows(q[..., start:stop, :], scale, k, v, rows_blocked, key_blocks, o, buffers)
        _divide_by_row_sum(o, l, masked=blocked is not None)
    return out


def _exact_rows(q_rows, scale, k, v, blocked, key_blocks, o, buffers):
    """The online softmax of one block of query rows, with the exact running maximum.

    q_rows: (..., b, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    blocked: None or bool broadcastable to (..., b, n_k), True = masked,
    o: (..., b, d_v) buffer we own -> l (..., b, 1); o holds the unnormalised output.
    """
    q_block, m, l = buffers.start(q_rows, scale, o)
    for k_start, k_stop in key_blocks:
        p = buffers.scores(q_block, k[..., k_start:k_stop, :])  # (..., b, b_k)
        if blocked is not None:
            np.copyto(p, -np.inf, where=_key_columns(blocked, k_start, k_stop))
        correction = _exp_minus_running_max(p, m, buffers)  # (..., b, 1)
        _rescale_and_add(l, correction, buffers.row_sums(p))
        _rescale_and_add(o, correction, buffers.weighted_values(p, v[..., k_start:k_stop, :]))
    return l


def _bounded_rows(q_rows, scale, bounds, v, o, buffers):
    """The online softmax of one block of query rows, shifted by a running upper bound.

    q_rows: (..., b, d_k), v: (..., n_k, d_v), o: (..., b, d_v) buffer we own
    -> l (..., b, 1); o holds the unnormalised output.

    After key blocks 0..j the shift of row i is m_i = |q_i| R_j, where R_j is
    the largest key norm in those blocks; by Cauchy-Schwarz no score seen so
    far exceeds it. The shift rides along in the score product,
    [q_i, -m_i] . [k_j, 1] = q_i . k_j - m_i, so the block is exponentiated
    in place with no pass for its maximum. When R grows, l and o are rescaled
    by exp(m - m_new) = exp(|q_i| (R_old - R_new)), as in the online softmax.
    """
    q_block, q_norm = buffers.start_shifted(q_rows, scale)  # (..., b, d_k + 1), (..., b, 1)
    shift = q_block[..., -1:]  # (..., b, 1), a view: -m
    _, l, _, _, correction, _, _ = buffers.rows(q_rows.shape[-2])
    for j, (k_start, k_stop) in enumerate(bounds.key_blocks):
        if j == 0 or bounds.grows[j]:
            norm = bounds.running_norm[..., j, None, None]  # (..., 1, 1): R_j
            np.multiply(q_norm, -norm, out=shift)  # -m_new
            if j > 0:  # correction = exp(m - m_new) = exp(|q| (R_old - R_new))
                np.multiply(q_norm, bounds.running_norm[..., j - 1, None, None] - norm, out=correction)
                np.exp(correction, out=correction)
                l *= correction
                o *= correction
        p = buffers.scores(q_block, bounds.keys[..., k_start:k_stop, :])  # (..., b, b_k), scores minus m: all <= 0
        np.exp(p, out=p)
        v_block = v[..., k_start:k_stop, :]  # (..., b_k, d_v)
        if j == 0:
            np.matmul(p, buffers.ones[: p.shape[-1]], out=l)
            np.matmul(p, v_block, out=o)
        else:
            l += buffers.row_sums(p)
            o += buffers.weighted_values(p, v_block)
    return l


class _KeyBounds:
    """What the bounded path needs from the keys, computed once per call.

    keys: (..., n_k, d_k + 1), the keys with a column of ones;
    running_norm: (..., n_blocks), the largest key norm in key blocks 0..j;
    grows: (n_blocks,) bool, whether running_norm rises at block j for any batch entry.
    """

    def __init__(self, k, key_blocks):
        self.key_blocks = key_blocks
        self.keys = _with_ones_column(k)  # (..., n_k, d_k + 1)
        norms = np.sqrt(np.vecdot(k, k))  # (..., n_k)
        block_max = np.maximum.reduceat(norms, [start for start, _ in key_blocks], axis=-1)  # (..., n_blocks)
        self.running_norm = np.maximum.accumulate(block_max, axis=-1)  # (..., n_blocks)
        rises = np.diff(self.running_norm, axis=-1) > 0  # (..., n_blocks - 1)
        self.grows = np.concatenate([[True], rises.any(axis=tuple(range(rises.ndim - 1)))])  # (n_blocks,)


class _Buffers:
    """Memory for one query block, allocated once per call and reused.

    Every array it hands out is a contiguous view of memory it owns, so the
    in-place updates never touch the caller's arrays. Views are cached per
    block height b (only the last query block can be shorter).
    """

    def __init__(self, batch, rows, key_rows, q, v):
        self.batch = batch
        size = math.prod(batch) * rows
        self.query = np.empty(math.prod(q.shape[:-2]) * rows * q.shape[-1], dtype=q.dtype)
        self.shifted_query = np.empty(size * (q.shape[-1] + 1), dtype=q.dtype)
        self.score = _empty_aligned(size * key_rows, q.dtype)
        self.value = np.empty(size * v.shape[-1], dtype=q.dtype)
        self.row_stats = np.empty((7, size), dtype=q.dtype)  # m, l, m_new, shift, correction, row_sum, q_norm
        self.ones = np.ones((key_rows, 1), dtype=q.dtype)
        self.rows_of = {}

    def rows(self, b):
        """Seven (..., b, 1) views: m, l, m_new, shift, correction, row_sum, q_norm."""
        if b not in self.rows_of:
            shape = self.batch + (b, 1)
            self.rows_of[b] = [r[: math.prod(shape)].reshape(shape) for r in self.row_stats]  # (..., b, 1)
        return self.rows_of[b]

    def start(self, q_rows, scale, o):
        """Begin a query block: scaled queries, m = -inf, l = 0 and o = 0.

        q_rows: (..., b, d_k), o: (..., b, d_v) -> (q_block (..., b, d_k), m (..., b, 1), l (..., b, 1))
        """
        q_block = self.query[: q_rows.size].reshape(q_rows.shape)  # (..., b, d_k)
        np.multiply(q_rows, scale, out=q_block)
        m, l = self.rows(q_rows.shape[-2])[:2]
        m.fill(-np.inf)
        l.fill(0.0)
        o.fill(0.0)
        return q_block, m, l

    def start_shifted(self, q_rows, scale):
        """Begin a bounded query block: [q * scale, (shift, unset)] and the norms |q * scale|.

        q_rows: (..., b, d_k) -> (q_block (batch..., b, d_k + 1), q_norm (batch..., b, 1))
        """
        b, d_k = q_rows.shape[-2:]
        shape = self.batch + (b, d_k + 1)
        q_block = self.shifted_query[: math.prod(shape)].reshape(shape)  # (..., b, d_k + 1)
        q_scaled = q_block[..., :d_k]  # (..., b, d_k), a view
        np.multiply(q_rows, scale, out=q_scaled)
        q_norm = self.rows(b)[6]  # (..., b, 1)
        np.sqrt(np.vecdot(q_scaled, q_scaled)[..., None], out=q_norm)
        return q_block, q_norm

    def scores(self, q_block, k_block):
        """q_block k_block^T into the score buffer.

        q_block: (..., b, d_k), k_block: (..., b_k, d_k) -> (..., b, b_k)
        """
        shape = self.batch + (q_block.shape[-2], k_block.shape[-2])
        p = self.score[: math.prod(shape)].reshape(shape)  # (..., b, b_k)
        return np.matmul(q_block, k_block.swapaxes(-1, -2), out=p)

    def row_sums(self, p):
        """Sum of each row of p, as a matrix-vector product. p: (..., b, b_k) -> (..., b, 1)."""
        return np.matmul(p, self.ones[: p.shape[-1]], out=self.rows(p.shape[-2])[5])

    def weighted_values(self, p, v_block):
        """p v_block into the value buffer. p: (..., b, b_k), v_block: (..., b_k, d_v) -> (..., b, d_v)."""
        shape = self.batch + (p.shape[-2], v_block.shape[-1])
        return np.matmul(p, v_block, out=self.value[: math.prod(shape)].reshape(shape))  # (..., b, d_v)


def _exp_minus_running_max(p, m, buffers):
    """In place: m <- max(m, rowmax(p)) and p <- exp(p - m); returns exp(m_old - m).

    p: (..., b, b_k) score block we own, m: (..., b, 1) running maximum
    -> correction (..., b, 1). Rows still entirely -inf are shifted by 0, so
    they stay exact zeros and no nan appears.
    """
    _, _, m_new, shift, correction, _, _ = buffers.rows(p.shape[-2])
    np.fmax.reduce(p, axis=-1, keepdims=True, out=m_new)
    np.fmax(m_new, m, out=m_new)
    np.copyto(shift, m_new)
    np.copyto(shift, 0.0, where=np.isneginf(shift))
    np.subtract(m, shift, out=correction)
    np.exp(correction, out=correction)  # exp(-inf) = 0 on the first block
    np.subtract(p, shift, out=p)
    np.exp(p, out=p)
    np.copyto(m, m_new)
    return correction


def _rescale_and_add(total, correction, term):
    """In place: total <- correction * total + term (all buffers we own)."""
    total *= correction
    total += term


def _key_columns(blocked, start, stop):
    """Columns start:stop of a broadcastable mask (an axis of size 1 stays whole)."""
    if blocked.shape[-1] == 1:
        return blocked
    return blocked[..., start:stop]
