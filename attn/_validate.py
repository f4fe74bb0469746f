"""Argument checks shared by every attn module. Private: no page teaches them.

One kind of error per mistake, and every message names the argument:

* TypeError: the wrong kind of thing. A float, bool or str where an int is needed; a complex, boolean,
  object or string array where real numbers are needed (the imaginary part is never dropped); a mask
  that is not boolean; an rng that is not a ``numpy.random.Generator``.
* ValueError: the right kind with a wrong value or shape. A size below its minimum; eps <= 0; too few
  axes; axes that do not match or do not broadcast; scores too large for the floating dtype.
"""

import math

import numpy as np

#: dtype kinds that hold real numbers: signed ints, unsigned ints, floats.
REAL_KINDS = "iuf"


def check_int(value, name, minimum=None):
    """value -> ``value`` as a Python int, at least ``minimum`` when one is given.

    TypeError unless ``value`` is an int or a numpy integer (a bool, float or str is refused);
    ValueError below ``minimum``.

    >>> check_int(np.int64(3), "n", minimum=0)
    3
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def check_positive(value, name):
    """value -> ``value`` as a Python float, finite and > 0.

    TypeError unless ``value`` is a real number (an int or a float; a bool, complex or str is refused);
    ValueError when it is <= 0, nan or infinite.

    >>> check_positive(1e-5, "eps")
    1e-05
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return float(value)


def check_float_dtype(dtype, name="dtype"):
    """dtype -> ``numpy.dtype(dtype)`` when it is a real floating dtype (float16, float32, float64...).

    TypeError for anything else: an int, complex or bool dtype, or something that is not a dtype.

    >>> check_float_dtype("float32")
    dtype('float32')
    """
    try:
        checked = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{name} must be a floating numpy dtype, got {dtype!r}") from None
    if checked.kind != "f":
        raise TypeError(f"{name} must be a floating numpy dtype, got {checked}")
    return checked


def check_rng(rng):
    """Raise TypeError unless ``rng`` is a numpy.random.Generator. -> None"""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy.random.Generator (e.g. np.random.default_rng(0)), got {type(rng).__name__}"
        )


def real_array(x, name, min_ndim=0, layout=""):
    """x -> ``np.asarray(x)``, holding real numbers (ints or floats) in at least ``min_ndim`` axes.

    TypeError for complex, boolean, object or string data; ValueError for too few axes (``layout``, e.g.
    "(..., n, d_model)", is quoted in the message). Never copies an array; never writes.
    """
    x = np.asarray(x)
    if x.dtype.kind not in REAL_KINDS:
        hint = " (complex numbers are refused, not truncated)" if x.dtype.kind == "c" else ""
        raise TypeError(f"{name} must hold real numbers (ints or floats), got dtype {x.dtype}{hint}")
    if x.ndim < min_ndim:
        layout = f" {layout}" if layout else ""
        raise ValueError(f"{name} must have at least {min_ndim} axes{layout}, got shape {x.shape}")
    return x


def float_arrays(**arrays):
    """name=array, ... -> the arrays in the order given, checked by :func:`real_array` and converted to one
    floating dtype: float64 unless every one is float32 or narrower (ints alone give float64).

    Never copies an array that already has that dtype; never writes.

    >>> x, y = float_arrays(x=[1, 2], y=np.ones(2, dtype=np.float32))
    >>> x.dtype, y.dtype
    (dtype('float64'), dtype('float64'))
    """
    checked = [real_array(a, name) for name, a in arrays.items()]
    dtype = np.result_type(*checked)
    if dtype.kind != "f":
        dtype = np.dtype(np.float64)
    return tuple(np.asarray(a, dtype=dtype) for a in checked)


def check_axis(axis, ndim, name="axis"):
    """axis -> ``axis`` as a Python int in [-ndim, ndim); TypeError unless an int, ValueError out of range."""
    axis = check_int(axis, name)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name} = {axis} is out of range for an array of {ndim} axes")
    return axis


def check_same_width(a, b, names, width="d_model"):
    """Raise ValueError unless arrays ``a`` and ``b`` have the same last axis (``width``). -> None"""
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"{names[0]} and {names[1]} need the same {width} (last axis), got {a.shape} and {b.shape}")


def attention_inputs(q, k, v, mask=None):
    """The arguments of an attention function, checked and converted.

    q: (..., n_q, d_k), k: (..., n_k, d_k), v: (..., n_k, d_v), mask: None or bool broadcastable to
    (..., n_q, n_k), True = may attend; the leading axes of all four broadcast together; d_k >= 1, n_k >= 1
    -> (q, k, v, mask): q, k, v of one floating dtype (see :func:`float_arrays`), mask None or a bool
    (..., n_q or 1, n_k or 1) array of at least 2 axes.

    >>> q, k, v, mask = attention_inputs(np.ones((3, 4)), np.ones((5, 4)), np.ones((5, 2)), np.ones(5, bool))
    >>> mask.shape
    (1, 5)
    """
    q, k, v = float_arrays(q=q, k=k, v=v)
    real_array(q, "q", 2, "(..., n_q, d_k)")
    real_array(k, "k", 2, "(..., n_k, d_k)")
    real_array(v, "v", 2, "(..., n_k, d_v)")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k need the same d_k (last axis), got shapes {q.shape} and {k.shape}")
    if q.shape[-1] == 0:
        raise ValueError(f"q and k need d_k >= 1 (last axis), got shapes {q.shape} and {k.shape}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k and v need the same n_k (second-to-last axis), got shapes {k.shape} and {v.shape}")
    if k.shape[-2] == 0:
        raise ValueError(f"k and v need at least one key (n_k >= 1), got shapes {k.shape} and {v.shape}")
    batch = _broadcast_batch([q, k, v], "q, k and v")
    return q, k, v, attention_mask(mask, q.shape[-2], k.shape[-2], batch)


def attention_mask(mask, n_q, n_k, batch=()):
    """mask -> None, or ``mask`` as a bool array of at least 2 axes, (..., n_q or 1, n_k or 1).

    TypeError unless boolean (True = may attend); ValueError unless its last two axes broadcast to
    (n_q, n_k) and its leading axes broadcast with ``batch``, the leading axes of q, k and v.
    """
    if mask is None:
        return None
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise TypeError(f"mask must be boolean (True = may attend), got dtype {mask.dtype}")
    mask = mask.reshape((1,) * (2 - mask.ndim) + mask.shape)  # (..., n_q or 1, n_k or 1)
    if mask.shape[-2] not in (1, n_q) or mask.shape[-1] not in (1, n_k):
        raise ValueError(f"mask of shape {mask.shape} does not broadcast to (..., n_q, n_k) = (..., {n_q}, {n_k})")
    try:
        np.broadcast_shapes(mask.shape[:-2], batch)
    except ValueError:
        raise ValueError(
            f"mask's leading (batch) axes {mask.shape[:-2]} do not broadcast with those of q, k and v, {batch}"
        ) from None
    return mask


def check_no_overflow(weights, q, k, mask=None):
    """Raise ValueError if softmax weights computed from q and k show scores that overflowed the dtype.

    weights: (..., n_q, n_k), q: (..., n_q, d_k), k: (..., n_k, d_k), mask: None or bool broadcastable
    to (..., n_q, n_k) -> None.

    First a proof that costs O(n d): when |q_i| |k_j| <= max / 2 for all rows with finite entries
    (Cauchy-Schwarz), no score, no partial sum of one and no difference of two scores can overflow,
    and nothing more is checked. Otherwise each row's weights are summed and checked by
    :func:`check_rows_no_overflow`.
    """
    limit = np.finfo(weights.dtype).max / 2
    if _largest_norm(q) * _largest_norm(k) <= limit:
        return
    check_rows_no_overflow(weights.sum(axis=-1, keepdims=True), q, k, mask)


def check_rows_no_overflow(row_sum, q_rows, k, mask_rows=None, first_row=0):
    """Raise ValueError naming q and k if a row's scores overflowed the floating dtype.

    row_sum: (..., b, 1) each row's sum of exponentials (or of weights), q_rows: (..., b, d_k) those
    rows' queries, k: (..., n_k, d_k), mask_rows: None or bool broadcastable to (..., b, n_k), True = may
    attend, first_row: the index of row 0 of the block in q -> None.

    A row whose sum is nan or 0 is suspect: a score that overflowed to +inf makes the sum nan, scores
    that all overflowed to -inf make it 0. It is an overflow unless the row has no key to see (a fully
    masked row sums to 0 by design) or one of its inputs is not finite (its query, or a key it may see):
    then the nan or 0 is the input's, passed on to the rows that depend on it. Costs one comparison per
    row unless a row is suspect.
    """
    suspect = ~(row_sum[..., 0] > 0)  # (..., b): nan or 0
    if not suspect.any():
        return
    finite_query = np.isfinite(q_rows).all(axis=-1)  # (..., b)
    finite_key = np.isfinite(k).all(axis=-1)  # (..., n_k)
    if mask_rows is None:
        sees_a_key = True
        sees_a_bad_key = ~finite_key.all(axis=-1, keepdims=True)  # (..., 1)
    else:
        sees_a_key = mask_rows.any(axis=-1)  # (..., b or 1)
        sees_a_bad_key = (mask_rows & ~finite_key[..., None, :]).any(axis=-1)  # (..., b or 1)
    overflow = suspect & finite_query & sees_a_key & ~sees_a_bad_key  # (..., b)
    if overflow.any():
        *batch, row = np.argwhere(overflow)[0].tolist()
        where = f"query row {first_row + row}" + (f" of batch entry {tuple(batch)}" if batch else "")
        raise ValueError(
            f"q and k: the scores of {where} overflow {q_rows.dtype} (largest finite value "
            f"{np.finfo(q_rows.dtype).max:.4g}); scale q or k down, or use a wider floating dtype"
        )


def _broadcast_batch(arrays, names):
    """The broadcast shape of the leading axes (all but the last two) of ``arrays``; ValueError if none."""
    shapes = [a.shape[:-2] for a in arrays]
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(
            f"the leading (batch) axes of {names} do not broadcast: {', '.join(map(str, shapes))}"
        ) from None


def _largest_norm(x):
    """The largest Euclidean norm of a row of x (last axis) with only finite entries, in float64.

    x: (..., n, d) -> float; inf when such a row's norm overflows float64, 0.0 when there is no such row.
    """
    with np.errstate(over="ignore"):  # a norm beyond float64 is inf: the proof then fails, as it should
        norms = np.sqrt(np.vecdot(x, x, dtype=np.float64))  # (..., n)
    return float(np.max(norms, where=np.isfinite(x).all(axis=-1), initial=0.0))
