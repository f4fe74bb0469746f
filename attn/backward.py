"""Backward passes of the layers in attn.core, attn.multihead and attn.layers.

Each ``f_backward(d_out, *inputs)`` takes the gradient of the loss with
respect to f's output and the same inputs f was called with, and returns
the gradients with respect to those inputs and to f's parameters (dicts
shaped like the parameters). Nothing is cached between the passes: each
backward recomputes the few intermediates it needs from the inputs, as
FlashAttention's backward recomputes the attention weights. A backward pass
keeps the floating dtype of its inputs: float32 in, float32 gradients out.

    softmax:    d_scores = w * (d_w - sum_j d_w_j w_j)
    attention:  dV = W^T dO,  dW = dO V^T,  dS = softmax'(dW),
                dQ = dS K / sqrt(d_k),  dK = dS^T Q / sqrt(d_k)
    layer norm: dx = (g - mean(g) - x_hat * mean(g * x_hat)) / sqrt(var + eps),  g = gamma * dy
    FFN:        d_pre = (dy W_2^T) * [x W_1 + b_1 > 0]

Taught on: docs/10-training.md
"""

import math

import numpy as np

from .core import dot_product_weights
from .multihead import merge_heads, split_heads


def softmax_backward(d_weights, weights):
    """The gradient through weights = softmax(scores) along the last axis.

    d_scores_j = w_j * (d_w_j - sum_k d_w_k w_k). A weight of exactly 0 (a
    masked score) gets a gradient of exactly 0.

    d_weights: (..., n), weights: (..., n) -> d_scores (..., n)

    >>> softmax_backward(np.array([1.0, 0.0]), np.array([0.5, 0.5]))
    array([ 0.25, -0.25])

    Taught on: docs/10-training.md
    """
    return weights * (d_weights - (d_weights * weights).sum(axis=-1, keepdims=True))


def attention_backward(d_out, q, k, v, mask=None):
    """The gradients of Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V.

    d_out: (..., n_q, d_v), q: (..., n_q, d_k), k: (..., n_k, d_k),
    v: (..., n_k, d_v), mask: bool broadcastable to (..., n_q, n_k), True = may
    attend -> (dq (..., n_q, d_k), dk (..., n_k, d_k), dv (..., n_k, d_v))

    >>> q, k, v = np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 5))
    >>> [g.shape for g in attention_backward(np.ones((2, 5)), q, k, v)]  # dq, dk, dv
    [(2, 3), (4, 3), (4, 5)]

    Taught on: docs/10-training.md
    """
    return _attention_backward(d_out, q, k, v, dot_product_weights(q, k, mask))


def multi_head_attention_backward(d_out, x_q, x_kv, params, h, mask=None):
    """The gradients of MultiHead(x_q, x_kv) = Concat(head_1..head_h) W_o.

    d_out: (..., n_q, d_model), x_q: (..., n_q, d_model), x_kv: (..., n_k, d_model),
    params: {"W_q", "W_k", "W_v", "W_o"} each (d_model, d_model), h: heads,
    mask: bool broadcastable to (..., n_q, n_k)
    -> (dx_q (..., n_q, d_model), dx_kv (..., n_k, d_model),
        {"W_q", "W_k", "W_v", "W_o"} each (d_model, d_model))

    For self-attention (x_q is x_kv) the input's gradient is dx_q + dx_kv.

    >>> params = {name: np.eye(4) for name in ("W_q", "W_k", "W_v", "W_o")}
    >>> dx_q, dx_kv, grads = multi_head_attention_backward(np.ones((3, 4)), np.ones((3, 4)), np.ones((5, 4)), params, 2)
    >>> dx_q.shape, dx_kv.shape, grads["W_o"].shape
    ((3, 4), (5, 4), (4, 4))

    Taught on: docs/10-training.md
    """
    q = split_heads(x_q @ params["W_q"], h)  # (..., h, n_q, d_k)
    k = split_heads(x_kv @ params["W_k"], h)  # (..., h, n_k, d_k)
    v = split_heads(x_kv @ params["W_v"], h)  # (..., h, n_k, d_v)
    if mask is not None:
        mask = np.expand_dims(np.asarray(mask), -3)  # (..., 1, n_q, n_k): the same for every head
    weights = dot_product_weights(q, k, mask)  # (..., h, n_q, n_k), recomputed
    concat = merge_heads(weights @ v)  # (..., n_q, d_model): the heads the forward pass concatenated
    d_heads = split_heads(d_out @ params["W_o"].T, h)  # (..., h, n_q, d_v)
    dq, dk, dv = (merge_heads(g) for g in _attention_backward(d_heads, q, k, v, weights))  # each (..., n, d_model)
    grads = {
        "W_q": _sum_outer(x_q, dq),
        "W_k": _sum_outer(x_kv, dk),
        "W_v": _sum_outer(x_kv, dv),
        "W_o": _sum_outer(concat, d_out),
    }
    return dq @ params["W_q"].T, dk @ params["W_k"].T + dv @ params["W_v"].T, grads


def layer_norm_backward(d_y, x, gamma=None, eps=1e-5):
    """The gradients of y = gamma * x_hat + beta, x_hat = (x - mean) / sqrt(var + eps).

    d_y: (..., n, d_model), x: (..., n, d_model), gamma: (d_model,) or None (1)
    -> (dx (..., n, d_model), {"gamma": (d_model,), "beta": (d_model,)})

    >>> dx, grads = layer_norm_backward(np.ones((2, 3)), np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]]))
    >>> bool(np.abs(dx).max() < 1e-12), grads["beta"]  # moving every output together: x does not matter
    (True, array([2., 2., 2.]))

    Taught on: docs/10-training.md
    """
    centred = x - x.mean(axis=-1, keepdims=True)  # (..., n, d_model)
    inv_std = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + eps)  # (..., n, 1)
    x_hat = centred * inv_std  # (..., n, d_model)
    g = d_y if gamma is None else d_y * gamma  # dL/dx_hat
    dx = inv_std * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_model = x.shape[-1]
    grads = {
        "gamma": (d_y * x_hat).reshape(-1, d_model).sum(axis=0),  # (d_model,)
        "beta": d_y.reshape(-1, d_model).sum(axis=0),  # (d_model,)
    }
    return dx, grads


def feed_forward_backward(d_out, x, params):
    """The gradients of FFN(x) = max(0, x W_1 + b_1) W_2 + b_2.

    d_out: (..., n, d_model), x: (..., n, d_model), params: {"W_1" (d_model, d_ff),
    "b_1" (d_ff,), "W_2" (d_ff, d_model), "b_2" (d_model,)}
    -> (dx (..., n, d_model), {"W_1", "b_1", "W_2", "b_2"} shaped like params)

    >>> params = {"W_1": np.ones((4, 6)), "b_1": np.zeros(6), "W_2": np.ones((6, 4)), "b_2": np.zeros(4)}
    >>> dx, grads = feed_forward_backward(np.ones((2, 3, 4)), np.ones((2, 3, 4)), params)
    >>> dx.shape, grads["W_1"].shape, grads["b_2"]  # b_2 collects all 6 positions
    ((2, 3, 4), (4, 6), array([6., 6., 6., 6.]))

    Taught on: docs/10-training.md
    """
    pre = x @ params["W_1"] + params["b_1"]  # (..., n, d_ff)
    d_pre = (d_out @ params["W_2"].T) * (pre > 0)  # (..., n, d_ff): ReLU passes where it was positive
    grads = {
        "W_1": _sum_outer(x, d_pre),
        "b_1": d_pre.reshape(-1, d_pre.shape[-1]).sum(axis=0),  # (d_ff,)
        "W_2": _sum_outer(np.maximum(pre, 0.0), d_out),
        "b_2": d_out.reshape(-1, d_out.shape[-1]).sum(axis=0),  # (d_model,)
    }
    return d_pre @ params["W_1"].T, grads


def _attention_backward(d_out, q, k, v, weights):
    """The gradients of weights @ v with weights = softmax(q k^T / sqrt(d_k)) -> (dq, dk, dv)."""
    scale = 1.0 / math.sqrt(q.shape[-1])
    dv = weights.swapaxes(-1, -2) @ d_out  # (..., n_k, d_v)
    d_weights = d_out @ v.swapaxes(-1, -2)  # (..., n_q, n_k)
    d_scores = softmax_backward(d_weights, weights)  # (..., n_q, n_k)
    dq = (d_scores @ k) * scale  # (..., n_q, d_k)
    dk = (d_scores.swapaxes(-1, -2) @ q) * scale  # (..., n_k, d_k)
    return _unbroadcast(dq, q.shape), _unbroadcast(dk, k.shape), _unbroadcast(dv, v.shape)


def _sum_outer(x, d):
    """Sum over every position of the outer product x^T d: the gradient of a weight matrix.

    x: (..., d_in), d: (..., d_out), leading shapes that broadcast -> (d_in, d_out)
    """
    if x.shape[:-1] != d.shape[:-1]:
        lead = np.broadcast_shapes(x.shape[:-1], d.shape[:-1])
        x, d = np.broadcast_to(x, lead + x.shape[-1:]), np.broadcast_to(d, lead + d.shape[-1:])
    return x.reshape(-1, x.shape[-1]).T @ d.reshape(-1, d.shape[-1])  # (d_in, d_out)


def _unbroadcast(grad, shape):
    """Sum grad over the axes that broadcasting added or stretched -> an array of ``shape``."""
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    stretched = tuple(axis for axis, size in enumerate(shape) if size == 1 and grad.shape[axis] != 1)
    return grad.sum(axis=stretched, keepdims=True) if stretched else grad
