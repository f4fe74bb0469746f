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
    _masked,
    _query_rows,
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
    extra memory is one (..., block_size, key_block_size) score block plus
    O(block_size * (d_k + d_v)) row state: O(n * block) in all, never
    O(n_q * n_k). Masked keys get weight exactly 0; a fully masked query row
    gets a zero output. Works in float32 as well as float64.

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
    buffers = _Buffers(batch, min(block_size, max(n_q, 1)), min(key_block_size, n_k), q, v)
    for start in range(0, n_q, block_size):
        stop = min(start + block_size, n_q)
        o = out[..., start:stop, :]  # (..., b, d_v), accumulated in place
        q_block, m, l = buffers.start(q[..., start:stop, :], scale, o)
        for k_start in range(0, n_k, key_block_size):
            k_stop = min(k_start + key_block_size, n_k)
            p = buffers.scores(q_block, k[..., k_start:k_stop, :])  # (..., b, b_k)
            if blocked is not None:
                np.copyto(p, -np.inf, where=_key_columns(_query_rows(blocked, start, stop), k_start, k_stop))
            correction = _exp_minus_running_max(p, m, buffers)  # (..., b, 1)
            _rescale_and_add(l, correction, buffers.row_sums(p))
            _rescale_and_add(o, correction, buffers.weighted_values(p, v[..., k_start:k_stop, :]))
        _divide_by_row_sum(o, l, masked=blocked is not None)
    return out


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
        self.score = np.empty(size * key_rows, dtype=q.dtype)
        self.value = np.empty(size * v.shape[-1], dtype=q.dtype)
        self.row_stats = np.empty((6, size), dtype=q.dtype)  # m, l, m_new, shift, correction, row_sum
        self.ones = np.ones((key_rows, 1), dtype=q.dtype)
        self.rows_of = {}

    def rows(self, b):
        """Six (..., b, 1) views: m, l, m_new, shift, correction, row_sum."""
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
    _, _, m_new, shift, correction, _ = buffers.rows(p.shape[-2])
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
