"""Multi-head attention: h heads of width d_k = d_model / h, side by side.

    MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W_o,
    head_i = Attention(Q W_q^i, K W_k^i, V W_v^i)      (Vaswani et al. 2017, 3.2.2)

The h per-head projections W_q^i (d_model, d_k) are stored side by side as one
full-width W_q (d_model, d_model); so are W_k and W_v. One matrix product
therefore projects all heads at once, a reshape splits the result into h
heads, and one batched attention call runs every head (the head axis is just
another leading axis: no Python loop over heads).

Taught on: docs/05-multi-head.md
"""

import numpy as np

from ._validate import attention_mask, check_int, check_same_width, real_array
from .core import scaled_dot_product_attention


def split_heads(x, h):
    """Cut the last axis into h heads and move the head axis forward.

    x: (..., n, d_model) -> (..., h, n, d_model // h), a view of x.
    Raises ValueError unless h divides d_model.

    >>> split_heads(np.zeros((2, 5, 12)), 3).shape  # (batch, n, d_model) -> (batch, h, n, d_k)
    (2, 3, 5, 4)

    Taught on: docs/05-multi-head.md
    """
    x = real_array(x, "x", 2, "(..., n, d_model)")
    h = check_int(h, "h", minimum=1)
    d_model = x.shape[-1]
    if d_model % h:
        raise ValueError(f"h = {h} does not divide d_model = {d_model}")
    x = x.reshape(x.shape[:-1] + (h, d_model // h))  # (..., n, h, d_k)
    return x.swapaxes(-2, -3)  # (..., h, n, d_k)


def merge_heads(x):
    """Inverse of :func:`split_heads`: concatenate the heads along the last axis.

    x: (..., h, n, d_k) -> (..., n, h * d_k)

    >>> merge_heads(np.zeros((2, 3, 5, 4))).shape  # (batch, h, n, d_k) -> (batch, n, d_model)
    (2, 5, 12)

    Taught on: docs/05-multi-head.md
    """
    x = real_array(x, "x", 3, "(..., h, n, d_k)")
    x = x.swapaxes(-2, -3)  # (..., n, h, d_k)
    return x.reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))  # (..., n, d_model)


def multi_head_attention(x_q, x_kv, params, h, mask=None, return_weights=False):
    """MultiHead(x_q, x_kv) = Concat(head_1..head_h) W_o, all heads batched.

    x_q: (..., n_q, d_model) the positions asking, x_kv: (..., n_k, d_model)
    the positions answered from (x_kv is x_q for self-attention, the encoder
    memory for cross-attention), params: {"W_q", "W_k", "W_v", "W_o"} each
    (d_model, d_model), h: number of heads (must divide d_model),
    mask: bool broadcastable to (..., n_q, n_k), True = may attend, shared by
    all heads -> (..., n_q, d_model), or (out, weights (..., h, n_q, n_k))
    when ``return_weights`` is True.

    >>> rng = np.random.default_rng(0)
    >>> params = {name: rng.standard_normal((8, 8)) for name in ("W_q", "W_k", "W_v", "W_o")}  # (d_model, d_model)
    >>> x = rng.standard_normal((2, 5, 8))  # (batch, n, d_model)
    >>> out, weights = multi_head_attention(x, x, params, h=2, return_weights=True)
    >>> out.shape, weights.shape  # (batch, n, d_model), (batch, h, n, n)
    ((2, 5, 8), (2, 2, 5, 5))

    Taught on: docs/05-multi-head.md
    """
    x_q = real_array(x_q, "x_q", 2, "(..., n_q, d_model)")
    x_kv = real_array(x_kv, "x_kv", 2, "(..., n_k, d_model)")
    check_same_width(x_q, x_kv, ("x_q", "x_kv"))
    q = split_heads(x_q @ params["W_q"], h)  # (..., h, n_q, d_k)
    k = split_heads(x_kv @ params["W_k"], h)  # (..., h, n_k, d_k)
    v = split_heads(x_kv @ params["W_v"], h)  # (..., h, n_k, d_v)
    mask = attention_mask(mask, x_q.shape[-2], x_kv.shape[-2])  # None or (..., n_q or 1, n_k or 1)
    if mask is not None:
        mask = np.expand_dims(mask, -3)  # (..., 1, n_q, n_k): same mask for every head
    result = scaled_dot_product_attention(q, k, v, mask, return_weights)
    heads, weights = result if return_weights else (result, None)
    out = merge_heads(heads) @ params["W_o"]  # (..., n_q, d_model)
    return (out, weights) if return_weights else out


def attention_head(x_q, x_kv, params, mask=None, return_weights=False):
    """One head with its own projections: Attention(x_q W_q, x_kv W_k, x_kv W_v).

    x_q: (..., n_q, d_model), x_kv: (..., n_k, d_model), params: {"W_q",
    "W_k"} each (d_model, d_k) and "W_v" (d_model, d_v) (see
    :func:`attn.init.init_attention`), mask: bool broadcastable to
    (..., n_q, n_k) -> (..., n_q, d_v), or (out, weights (..., n_q, n_k)).

    >>> rng = np.random.default_rng(0)
    >>> params = {"W_q": rng.standard_normal((8, 4)), "W_k": rng.standard_normal((8, 4)),
    ...           "W_v": rng.standard_normal((8, 3))}  # (d_model, d_k), (d_model, d_k), (d_model, d_v)
    >>> attention_head(rng.standard_normal((5, 8)), rng.standard_normal((7, 8)), params).shape  # (n_q, d_v)
    (5, 3)

    Taught on: docs/03-queries-keys-values.md
    """
    x_q = real_array(x_q, "x_q", 2, "(..., n_q, d_model)")
    x_kv = real_array(x_kv, "x_kv", 2, "(..., n_k, d_model)")
    q = x_q @ params["W_q"]  # (..., n_q, d_k)
    k = x_kv @ params["W_k"]  # (..., n_k, d_k)
    v = x_kv @ params["W_v"]  # (..., n_k, d_v)
    return scaled_dot_product_attention(q, k, v, mask, return_weights)
