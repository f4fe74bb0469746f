"""A Llama-2-style decoder block, built from the pieces of attn.

    x <- x + Attention(RMSNorm(x))       queries and keys rotated by RoPE,
                                         h query heads sharing `groups` key/value heads
    x <- x + SwiGLU(RMSNorm(x))

Pre-norm as in attn.prenorm, RMSNorm (attn.rmsnorm) for layer norm, RoPE
(attn.rope) on the queries and keys of every head, grouped-query attention
(attn.grouped) with a causal mask, the SwiGLU network (attn.glu). No
projection has a bias, as in Meta's released code.

Parameter layout: {"attn_norm": {"gamma" (d_model,)},
                   "self_attn": {"W_q" (d_model, h d_k), "W_k" (d_model, groups d_k),
                                 "W_v" (d_model, groups d_k), "W_o" (h d_k, d_model)},
                   "ffn_norm": {"gamma" (d_model,)},
                   "ffn": {"W", "V" (d_model, d_ff), "W_2" (d_ff, d_model)}}

Taught on: docs/14-modern-decoder.md
"""

import math

import numpy as np

from ._validate import check_int, check_rng, real_array
from .core import causal_mask
from .glu import init_swiglu, swiglu_feed_forward
from .grouped import attend_in_groups
from .multihead import merge_heads, split_heads
from .rmsnorm import rms_norm
from .rope import apply_rope


def init_llama_block(rng, d_model, h, groups, d_ff):
    """Random parameters of one Llama-style block (layout in the module docstring).

    d_model: width, h: query heads (dividing d_model), groups: key/value heads
    (dividing h), d_ff: the SwiGLU width -> a nested dict of arrays

    >>> p = init_llama_block(np.random.default_rng(0), d_model=8, h=4, groups=2, d_ff=12)
    >>> p["self_attn"]["W_k"].shape, p["ffn"]["W"].shape  # 2 key heads of d_k = 2
    ((8, 4), (8, 12))

    Taught on: docs/14-modern-decoder.md
    """
    check_rng(rng)
    d_model, h = check_int(d_model, "d_model", 1), check_int(h, "h", 1)
    groups = check_int(groups, "groups", 1)
    if d_model % h or h % groups:
        raise ValueError(f"need h | d_model and groups | h, got d_model = {d_model}, h = {h}, groups = {groups}")
    d_k = d_model // h
    scale = 1 / math.sqrt(d_model)
    return {
        "attn_norm": {"gamma": np.ones(d_model)},
        "self_attn": {
            "W_q": rng.standard_normal((d_model, h * d_k)) * scale,
            "W_k": rng.standard_normal((d_model, groups * d_k)) * scale,
            "W_v": rng.standard_normal((d_model, groups * d_k)) * scale,
            "W_o": rng.standard_normal((h * d_k, d_model)) * scale,
        },
        "ffn_norm": {"gamma": np.ones(d_model)},
        "ffn": init_swiglu(rng, d_model, d_ff),
    }


def rope_grouped_attention(x, params, h, groups, positions=None):
    """Causal grouped-query self-attention with RoPE on the queries and keys.

    x: (..., n, d_model), params: {"W_q", "W_k", "W_v", "W_o"} as in the module
    docstring, h: query heads, groups: key/value heads, positions: (n,) the
    positions RoPE turns by, default 0 .. n - 1 -> (..., n, d_model)

    >>> p = init_llama_block(np.random.default_rng(0), d_model=8, h=4, groups=2, d_ff=12)
    >>> rope_grouped_attention(np.ones((5, 8)), p["self_attn"], h=4, groups=2).shape  # (n, d_model)
    (5, 8)

    Taught on: docs/14-modern-decoder.md
    """
    x = real_array(x, "x", 2, "(..., n, d_model)")
    q = apply_rope(split_heads(x @ params["W_q"], h), positions)  # (..., h, n, d_k)
    k = apply_rope(split_heads(x @ params["W_k"], groups), positions)  # (..., groups, n, d_k)
    v = split_heads(x @ params["W_v"], groups)  # (..., groups, n, d_k): values are not rotated
    heads = attend_in_groups(q, k, v, causal_mask(x.shape[-2]))  # (..., h, n, d_k)
    return merge_heads(heads) @ params["W_o"]  # (..., n, d_model)


def llama_block(x, params, h, groups, positions=None, eps=1e-6):
    """One Llama-2-style block: x + Attention(RMSNorm(x)), then that plus SwiGLU(RMSNorm(of it)).

    x: (..., n, d_model), params: see the module docstring, h: query heads,
    groups: key/value heads, positions: (n,) or None, eps: RMSNorm's
    -> (..., n, d_model)

    >>> p = init_llama_block(np.random.default_rng(0), d_model=8, h=4, groups=2, d_ff=12)
    >>> llama_block(np.ones((2, 5, 8)), p, h=4, groups=2).shape  # (batch, n, d_model)
    (2, 5, 8)

    Taught on: docs/14-modern-decoder.md
    """
    x = real_array(x, "x", 2, "(..., n, d_model)")
    z = rms_norm(x, params["attn_norm"]["gamma"], eps)  # (..., n, d_model)
    x = x + rope_grouped_attention(z, params["self_attn"], h, groups, positions)
    return x + swiglu_feed_forward(rms_norm(x, params["ffn_norm"]["gamma"], eps), params["ffn"])
