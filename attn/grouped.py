"""Grouped-query and multi-query attention: query heads share key and value heads.

Multi-head attention gives each of its h heads its own keys and values.
Multi-query attention (Shazeer 2019) keeps h query heads but one key head and
one value head for all of them. Grouped-query attention (Ainslie et al. 2023)
sits in between: the h query heads are cut into g groups of h / g consecutive
heads, and each group shares one key head and one value head. g = h is
multi-head attention, g = 1 is multi-query attention.

Only the keys and values shrink, from h heads to g, so a decoder's key-value
cache shrinks by h / g; the queries, the output projection and the shape of
the result do not change.

Parameter layout: W_q (d_model, h * d_k) and W_o (h * d_v, d_model) as in
:mod:`attn.multihead`; W_k (d_model, g * d_k) and W_v (d_model, g * d_v),
the g key (value) heads side by side.

Taught on: docs/11-generating-text.md
"""

import numpy as np

from ._validate import check_int
from .core import scaled_dot_product_attention
from .multihead import merge_heads, split_heads


def attend_in_groups(q, k, v, mask=None):
    """Attention of h query heads over g shared key/value heads, h / g query heads per group.

    q: (..., h, n_q, d_k), k: (..., g, n_k, d_k), v: (..., g, n_k, d_v) with
    g dividing h; query heads i * h/g .. (i + 1) * h/g - 1 read key/value head
    i. mask: bool broadcastable to (..., n_q, n_k), True = may attend, the same
    for every head -> (..., h, n_q, d_v). With g = h this is
    scaled_dot_product_attention(q, k, v, mask), head by head.

    No key or value head is copied: the group axis broadcasts.

    >>> rng = np.random.default_rng(0)
    >>> q = rng.standard_normal((4, 5, 3))  # (h, n_q, d_k): 4 query heads
    >>> k, v = rng.standard_normal((2, 6, 3)), rng.standard_normal((2, 6, 2))  # 2 key/value heads
    >>> attend_in_groups(q, k, v).shape  # (h, n_q, d_v)
    (4, 5, 2)

    Taught on: docs/11-generating-text.md
    """
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)
    if q.ndim < 3 or k.ndim < 3 or v.ndim < 3:
        raise ValueError("q, k and v need a head axis: (..., heads, n, d)")
    h, g = q.shape[-3], k.shape[-3]
    if v.shape[-3] != g:
        raise ValueError(f"k has {g} heads but v has {v.shape[-3]}")
    if g == 0 or h % g:
        raise ValueError(f"{g} key/value heads do not divide {h} query heads")
    q = q.reshape(q.shape[:-3] + (g, h // g) + q.shape[-2:])  # (..., g, h / g, n_q, d_k)
    k = np.expand_dims(k, -3)  # (..., g, 1, n_k, d_k): one key head per group
    v = np.expand_dims(v, -3)  # (..., g, 1, n_k, d_v)
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), (-3, -4))  # (..., 1, 1, n_q, n_k)
    out = scaled_dot_product_attention(q, k, v, mask)  # (..., g, h / g, n_q, d_v)
    return out.reshape(out.shape[:-4] + (h,) + out.shape[-2:])  # (..., h, n_q, d_v)


def grouped_query_attention(x_q, x_kv, params, h, groups, mask=None):
    """Grouped-query attention: Concat(head_1..head_h) W_o, query heads sharing keys and values.

    x_q: (..., n_q, d_model), x_kv: (..., n_k, d_model), params: {"W_q"
    (d_model, h * d_k), "W_k" (d_model, groups * d_k), "W_v" (d_model,
    groups * d_v), "W_o" (h * d_v, d_model)}, h: query heads, groups: key/value
    heads (dividing h; groups = h is multi-head attention, groups = 1
    multi-query attention), mask: bool broadcastable to (..., n_q, n_k)
    -> (..., n_q, d_model)

    >>> rng = np.random.default_rng(0)
    >>> mha = {name: rng.standard_normal((8, 8)) for name in ("W_q", "W_k", "W_v", "W_o")}
    >>> params = mean_pool_kv_heads(mha, h=4, groups=2)  # W_k, W_v: (8, 4)
    >>> x = rng.standard_normal((5, 8))  # (n, d_model)
    >>> grouped_query_attention(x, x, params, h=4, groups=2).shape  # (n, d_model)
    (5, 8)

    Taught on: docs/11-generating-text.md
    """
    h, groups = check_int(h, "h", 1), check_int(groups, "groups", 1)
    d_k = np.shape(params["W_q"])[1] // h
    if np.shape(params["W_k"])[1] != groups * d_k:
        raise ValueError(
            f"W_k has {np.shape(params['W_k'])[1]} columns; {groups} groups of d_k = {d_k} need {groups * d_k}"
        )
    q = split_heads(x_q @ params["W_q"], h)  # (..., h, n_q, d_k)
    k = split_heads(x_kv @ params["W_k"], groups)  # (..., groups, n_k, d_k)
    v = split_heads(x_kv @ params["W_v"], groups)  # (..., groups, n_k, d_v)
    heads = attend_in_groups(q, k, v, mask)  # (..., h, n_q, d_v)
    return merge_heads(heads) @ params["W_o"]  # (..., n_q, d_model)


def mean_pool_kv_heads(params, h, groups):
    """Multi-head parameters converted to grouped-query ones by averaging key and value heads.

    params: {"W_q", "W_k", "W_v", "W_o"} of multi-head attention, each
    (d_model, d_model); h: its heads; groups: dividing h -> a new dict with
    W_q and W_o copied and W_k, W_v (d_model, groups * d_k): the key (value)
    projection of group i is the mean of those of heads i * h/groups ..
    (i + 1) * h/groups - 1. groups = h returns the projections unchanged.
    This is the checkpoint conversion of Ainslie et al. (2023, section 2.2).

    >>> w = np.array([[1.0, 3.0, 5.0, 7.0]])  # d_model = 1, h = 4 heads of width 1
    >>> mean_pool_kv_heads({"W_q": w, "W_k": w, "W_v": w, "W_o": w.T}, h=4, groups=2)["W_k"]
    array([[2., 6.]])

    Taught on: docs/11-generating-text.md
    """
    h, groups = check_int(h, "h", 1), check_int(groups, "groups", 1)
    if h % groups:
        raise ValueError(f"groups = {groups} does not divide h = {h}")
    pooled = {name: np.array(params[name]) for name in ("W_q", "W_o")}
    for name in ("W_k", "W_v"):
        w = np.asarray(params[name])
        d_model, width = w.shape
        if width % h:
            raise ValueError(f"{name} has {width} columns, not a multiple of h = {h}")
        w = w.reshape(d_model, groups, h // groups, width // h)  # (d_model, groups, h / groups, d_k)
        pooled[name] = w.mean(axis=2).reshape(d_model, groups * (width // h))  # (d_model, groups * d_k)
    return pooled
