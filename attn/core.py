"""Scaled dot-product attention and the softmax it is built on.

    Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V      (Vaswani et al. 2017, eq. 1)

Shapes use the paper's names: n_q query positions, n_k key positions, d_k the
width of queries and keys, d_v the width of values. Leading ``...`` axes
(batch, heads) broadcast.

Masks are boolean and True means "may attend". A masked score is set to -inf
before the softmax, so its weight is exactly 0. A query row whose keys are
*all* masked gets all-zero weights and an all-zero output, silently (no
warning, no nan): that is the documented choice for fully padded rows.

Taught on: docs/03-queries-keys-values.md
"""

import math

import numpy as np

from ._validate import check_int

#: Query rows handled per block by :func:`scaled_dot_product_attention`.
#: A (128, n_k) float64 score block is 1 MiB at n_k = 1024: it stays in cache.
QUERY_BLOCK = 128

#: In float64, a row whose shifted exponentials sum to less than this (about
#: e^-598) is recomputed with its exact maximum: its bound was too loose to keep
#: every weight exact. Narrower floats use their machine epsilon instead (see
#: ``_loose_bound``).
LOOSE_BOUND = 1e-260


def softmax(x, axis=-1):
    """Numerically stable softmax along ``axis``.

    Subtracts the maximum of each slice before exponentiating, so scores of
    1e4 neither overflow nor produce nan. Entries of -inf mean "masked" and get
    weight exactly 0. A slice that is entirely -inf gets all-zero weights (not
    nan, and no warning). Inputs containing nan or +inf are not supported.

    x: (..., n) -> (..., n), same shape as ``x``; each slice along ``axis``
    sums to 1 (or is all 0 when fully masked). Integer input gives float64.

    Taught on: docs/02-one-head-by-hand.md
    """
    x = _as_float(x)
    x_max = np.max(x, axis=axis, keepdims=True)
    np.copyto(x_max, 0.0, where=np.isneginf(x_max))  # fully masked slice: shift by 0
    e = np.exp(x - x_max)  # the only full-size allocation; x is never written
    total = np.sum(e, axis=axis, keepdims=True)
    np.copyto(total, 1.0, where=total == 0)  # fully masked slice: 0 / 1 = 0
    e /= total
    return e


def scaled_dot_product_attention(q, k, v, mask=None, return_weights=False):
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    mask: bool, broadcastable to (..., n_q, n_k), True = may attend
    -> out (..., n_q, d_v), or (out, weights (..., n_q, n_k)) when
    ``return_weights`` is True.

    Masked weights are exactly 0; a fully masked query row gets zero weights
    and a zero output. The result has the floating dtype of the inputs
    (float32 stays float32; integers become float64).

    Without ``return_weights`` the n_q x n_k weight matrix is never built
    whole: query rows are processed ``QUERY_BLOCK`` at a time so the score
    block stays in cache and is reused; 1/sqrt(d_k) scales Q (n_q * d_k
    multiplies, not n_q * n_k); without a mask, each row is shifted for
    stability by an upper bound of its maximum folded into the matrix product
    (see ``_softmax_qk_v``), not by a separate pass; the exponential is taken
    in place; and the (n_q, d_v) output is divided by the row sums instead of
    normalising the n_q x n_k weights.

    Taught on: docs/03-queries-keys-values.md
    """
    q, k, v = _as_float(q, k, v)
    _check_qkv(q, k, v)
    scale = 1.0 / math.sqrt(q.shape[-1])  # applied to Q: n_q * d_k multiplies, not n_q * n_k
    if return_weights:
        weights = softmax(_masked((q * scale) @ k.swapaxes(-1, -2), mask))  # (..., n_q, n_k)
        return weights @ v, weights
    return _softmax_qk_v(q, k, v, _blocked(mask), scale)


def causal_mask(n):
    """Mask letting position i attend to positions 0..i only.

    -> bool (n, n), lower triangle (diagonal included) True.

    Taught on: docs/07-block-masking-cost.md
    """
    n = check_int(n, "n", 0)
    return np.tri(n, n, dtype=bool)


def padding_mask(lengths, n):
    """Mask hiding the padding at the end of each sequence of a batch.

    lengths: (batch,) ints in [0, n], the number of real tokens of each
    sequence -> bool (batch, 1, n), True for real tokens. The middle axis of
    size 1 broadcasts over the query positions n_q.

    Taught on: docs/07-block-masking-cost.md
    """
    n = check_int(n, "n", 0)
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or not np.issubdtype(lengths.dtype, np.integer):
        raise ValueError("lengths must be a 1-D array of integers")
    if np.any(lengths < 0) or np.any(lengths > n):
        raise ValueError(f"every length must lie in [0, {n}]")
    real = np.arange(n) < lengths[:, None]  # (batch, n)
    return real[:, None, :]  # (batch, 1, n)


# ---------------------------------------------------------------- helpers --


def _softmax_qk_v(q, k, v, blocked, scale, block_size=QUERY_BLOCK):
    """softmax(scale * q k^T) v, ``block_size`` query rows at a time.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v),
    blocked: None or bool broadcastable to (..., n_q, n_k), True = masked
    -> (..., n_q, d_v)

    Without a mask, stability costs no pass over the scores for their
    maximum: each row is shifted by an upper bound of its maximum instead,
    m_i = |q_i| max_j |k_j| (Cauchy-Schwarz: q_i . k_j <= m_i), so no exponent
    is positive and nothing overflows; softmax does not change when a row is
    shifted. The shift rides along in the first matrix product:
    [q_i, -m_i] . [k_j, 1] = q_i . k_j - m_i. If a bound is so loose that a
    row's exponentials sum to less than ``_loose_bound(dtype)`` (they all but
    underflow, or the rounding of the shift would show), the block is
    recomputed with the exact row maximum. With a mask, every row
    subtracts its exact maximum over the keys it may see, so a masked key has no
    influence at all, not even on rounding.
    """
    batch = _batch_shape(q, k, v, blocked)
    n_q, n_k, d_k, d_v = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    _check_mask(blocked, n_q, n_k)
    rows = max(1, min(block_size, n_q))
    q_shifted, k_shifted_t = _shifted_operands(q, k, scale, batch, bounded=blocked is None)
    q_scaled = q_shifted[..., :d_k]  # (..., n_q, d_k), a view: Q / sqrt(d_k)
    k_t = k.swapaxes(-1, -2)  # (..., d_k, n_k), a view
    out = np.empty(batch + (n_q, d_v), dtype=q.dtype)
    row_sum = np.empty(batch + (n_q, 1), dtype=q.dtype)
    score_buffer = _empty_aligned(math.prod(batch) * rows * n_k, q.dtype)
    row_max = np.empty(math.prod(batch) * rows, dtype=q.dtype)
    ones = np.ones((n_k, 1), dtype=q.dtype)
    loose = _loose_bound(q.dtype)
    for start in range(0, n_q, rows):
        stop = min(start + rows, n_q)
        shape = batch + (stop - start, n_k)
        scores = score_buffer[: math.prod(shape)].reshape(shape)  # (..., b, n_k)
        block_sum = row_sum[..., start:stop, :]  # (..., b, 1), a view
        exact = blocked is not None
        if not exact:
            np.matmul(q_shifted[..., start:stop, :], k_shifted_t, out=scores)  # scores minus each row's bound: all <= 0
            np.exp(scores, out=scores)
            np.matmul(scores, ones, out=block_sum)  # row sums as a matrix-vector product
            exact = block_sum.min() < loose  # a bound too loose to keep every weight
        if exact:
            np.matmul(q_scaled[..., start:stop, :], k_t, out=scores)
            if blocked is not None:
                np.copyto(scores, -np.inf, where=_query_rows(blocked, start, stop))
            block_max = row_max[: math.prod(shape[:-1])].reshape(shape[:-1] + (1,))  # (..., b, 1)
            _exp_minus_row_max(scores, block_max, masked=blocked is not None)
            np.matmul(scores, ones, out=block_sum)
        np.matmul(scores, v, out=out[..., start:stop, :])
    _divide_by_row_sum(out, row_sum, masked=blocked is not None)
    return out


def _loose_bound(dtype):
    """The smallest row sum of bounded exponentials accepted for ``dtype`` -> float.

    A bound m above a row's true maximum costs twice: weights that fall below
    the smallest normal number lose precision, and every shifted score carries
    a rounding error of about eps * m. In float64 a row sum down to
    ``LOOSE_BOUND`` (a gap of up to ~598) keeps both far below 1e-12. Narrower
    floats have too short an exponent range and too large an eps for that:
    they accept a row sum down to their eps (a gap of at most ~16 in float32,
    ~7 in float16), which keeps the error within a few eps.
    """
    return LOOSE_BOUND if dtype == np.float64 else float(np.finfo(dtype).eps)


def _shifted_operands(q, k, scale, batch, bounded=True):
    """Scaled queries with a column for the shift, and keys with a column of ones.

    q: (..., n_q, d_k), k: (..., n_k, d_k)
    -> q_shifted (batch..., n_q, d_k + 1) = [q * scale, -m] with m = |q * scale| max_j |k_j|,
       k_shifted_t (..., d_k + 1, n_k) = [k, 1]^T,
    so that q_shifted @ k_shifted_t = scale * q k^T - m. When ``bounded`` is False the
    last column of q_shifted is left unset and k_shifted_t is None.
    """
    n_q, d_k = q.shape[-2:]
    q_shifted = np.empty(batch + (n_q, d_k + 1), dtype=q.dtype)
    q_scaled = q_shifted[..., :d_k]  # (..., n_q, d_k), a view
    np.multiply(q, scale, out=q_scaled)  # Q / sqrt(d_k): n_q * d_k multiplies, not n_q * n_k
    if not bounded:
        return q_shifted, None
    k_norm_max = np.sqrt(np.vecdot(k, k).max(axis=-1))[..., None]  # (..., 1)
    np.multiply(np.sqrt(np.vecdot(q_scaled, q_scaled)), -k_norm_max, out=q_shifted[..., d_k])
    return q_shifted, _with_ones_column(k).swapaxes(-1, -2)  # (..., d_k + 1, n_k), a view


def _empty_aligned(size, dtype, align=64):
    """An uninitialised 1-D buffer whose first item starts a cache line.

    -> (size,) of ``dtype``. malloc only promises 16-byte alignment; the score
    block is written by the BLAS and then read and written again by exp with
    64-byte vector instructions, which run measurably slower (3 to 5% of a
    whole call at n = 1024, by bench/attention.py) when every one of them
    straddles two cache lines.
    """
    itemsize = np.dtype(dtype).itemsize
    raw = np.empty(size + align // itemsize, dtype=dtype)
    offset = (-raw.__array_interface__["data"][0] % align) // itemsize
    return raw[offset : offset + size]  # (size,)


def _with_ones_column(k):
    """k: (..., n_k, d_k) -> [k, 1]: (..., n_k, d_k + 1), a new array."""
    return np.concatenate([k, np.ones(k.shape[:-1] + (1,), dtype=k.dtype)], axis=-1)  # (..., n_k, d_k + 1)


def _exp_minus_row_max(scores, row_max, masked=True):
    """In place: scores <- exp(scores - max of its row); row_max receives the max.

    scores: (..., b, n) buffer we own, row_max: (..., b, 1) buffer -> None.
    When ``masked``, a row of -inf is shifted by 0, so it becomes exact zeros
    (without a mask, finite scores have a finite max and the check is skipped).
    """
    np.fmax.reduce(scores, axis=-1, keepdims=True, out=row_max)
    if masked:
        np.copyto(row_max, 0.0, where=np.isneginf(row_max))
    np.subtract(scores, row_max, out=scores)
    np.exp(scores, out=scores)


def _divide_by_row_sum(out, row_sum, masked=True):
    """In place: out <- out / row_sum; a row sum of 0 (fully masked) leaves zeros.

    out: (..., b, d_v) buffer we own, row_sum: (..., b, 1) -> None. Unmasked
    rows have row_sum >= 1 (the max contributes exp(0) = 1), so the guard
    against 0 is needed only when ``masked``.
    """
    if masked:
        np.maximum(row_sum, np.finfo(row_sum.dtype).tiny, out=row_sum)
    out /= row_sum


def _as_float(*arrays):
    """Arrays as one common floating dtype (float64 unless all are float32 or
    lower). Never copies a float array of the right dtype; never writes.

    -> a single array when given one, else a tuple.
    """
    arrays = [np.asarray(a) for a in arrays]
    dtype = np.result_type(*arrays)
    if not np.issubdtype(dtype, np.floating):
        dtype = np.dtype(np.float64)
    arrays = tuple(np.asarray(a, dtype=dtype) for a in arrays)
    return arrays[0] if len(arrays) == 1 else arrays


def _check_qkv(q, k, v):
    """Raise ValueError unless q (..., n_q, d_k), k (..., n_k, d_k), v (..., n_k, d_v)."""
    if q.ndim < 2 or k.ndim < 2 or v.ndim < 2:
        raise ValueError("q, k and v must have at least 2 axes: (..., n, d)")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k need the same d_k, got {q.shape[-1]} and {k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k and v need the same n_k, got {k.shape[-2]} and {v.shape[-2]}")
    if k.shape[-2] == 0:
        raise ValueError("there must be at least one key (n_k >= 1)")

def _blocked(mask):
    """The complement of a boolean mask (True = masked), or None.

    mask: broadcastable to (..., n_q, n_k) -> bool array of at least 2 axes.
    """
    if mask is None:
        return None
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise TypeError(f"mask must be boolean (True = may attend), got {mask.dtype}")
    return np.logical_not(mask.reshape((1,) * (2 - mask.ndim) + mask.shape))  # (..., n_q, n_k)


def _check_mask(blocked, n_q, n_k):
    """Raise ValueError unless the mask's last two axes broadcast to (n_q, n_k)."""
    if blocked is None:
        return
    if blocked.shape[-2] not in (1, n_q) or blocked.shape[-1] not in (1, n_k):
        raise ValueError(f"mask of shape {blocked.shape} does not broadcast to (..., {n_q}, {n_k})")


def _masked(scores, mask):
    """Scores with every masked entry set to -inf.

    scores: (..., n_q, n_k), mask broadcastable to it -> (..., n_q, n_k);
    ``scores`` is returned unchanged when mask is None.
    """
    blocked = _blocked(mask)
    if blocked is None:
        return scores
    _check_mask(blocked, scores.shape[-2], scores.shape[-1])
    return np.where(blocked, -np.inf, scores)


def _query_rows(blocked, start, stop):
    """Rows start:stop of a broadcastable mask (an axis of size 1 stays whole).

    blocked: (..., n_q or 1, n_k or 1) -> (..., stop - start or 1, n_k or 1)
    """
    if blocked.shape[-2] == 1:
        return blocked
    return blocked[..., start:stop, :]


def _batch_shape(q, k, v, blocked):
    """Broadcast shape of the leading ``...`` axes of q, k, v and the mask."""
    shapes = [q.shape[:-2], k.shape[:-2], v.shape[:-2]]
    if blocked is not None:
        shapes.append(blocked.shape[:-2])
    return tuple(np.broadcast_shapes(*shapes))
