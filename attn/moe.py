"""A mixture-of-experts feed-forward layer: a router, top-k experts, balance and capacity.

The layer holds E expert networks (SwiGLU, as in Mixtral) and a router, a
(d_model, E) matrix. Each token's router logits x W_r pick its top k experts;
their outputs are summed with gates, the softmax over those k logits (Jiang
et al. 2024, Mixtral, section 2.1):

    y = sum over the top k experts e of  softmax(top-k logits)_e * SwiGLU_e(x).

Training adds the load-balancing loss of the Switch Transformer (Fedus et
al. 2022, equation 4, without its coefficient alpha), over a batch of T tokens:

    loss = E * sum_i f_i P_i,   f_i = share of the T k assignments sent to expert i,
                                P_i = mean over the tokens of the router probability of i.

With k = 1, f_i is Switch's fraction of tokens dispatched to expert i. The
loss is 1 when both f and P are uniform and E when one expert takes every
token with probability 1.

An expert processes at most `capacity` assignments per batch (Fedus et al.
2022, equation 3: tokens per batch / experts * capacity factor, times k here).
Assignments over capacity are dropped: that expert adds nothing for that
token, and a token with every assignment dropped leaves the layer as 0, so
the residual connection carries it on unchanged (their section 2.2).
First choices are served before second choices, each in token order.

Parameter layout: {"router": (d_model, E), "experts": [E SwiGLU dicts]}.

Taught on: docs/14-modern-decoder.md
"""

import math

import numpy as np

from ._validate import check_int, check_positive, check_rng, real_array
from .core import softmax
from .glu import init_swiglu, swiglu_feed_forward


def init_moe(rng, d_model, d_ff, experts):
    """Random parameters of a mixture-of-experts layer of SwiGLU experts.

    -> {"router": (d_model, experts), "experts": list of experts SwiGLU dicts,
    each {"W", "V" (d_model, d_ff), "W_2" (d_ff, d_model)}}

    >>> p = init_moe(np.random.default_rng(0), d_model=4, d_ff=6, experts=8)
    >>> p["router"].shape, len(p["experts"])
    ((4, 8), 8)

    Taught on: docs/14-modern-decoder.md
    """
    check_rng(rng)
    d_model, experts = check_int(d_model, "d_model", 1), check_int(experts, "experts", 1)
    return {
        "router": rng.standard_normal((d_model, experts)) / math.sqrt(d_model),
        "experts": [init_swiglu(rng, d_model, d_ff) for _ in range(experts)],
    }


def route_top_k(x, router, k):
    """Each token's top k experts, their gates, and the router's probabilities over all experts.

    x: (..., n, d_model), router: (d_model, E), k: 1 .. E
    -> (chosen (..., n, k) int, best first; gates (..., n, k), the softmax over
    the chosen logits, each row summing to 1; probs (..., n, E), the softmax
    over all E logits). Ties go to the lower expert index.

    >>> chosen, gates, probs = route_top_k(np.array([[1.0]]), np.array([[0.0, 2.0, 1.0]]), k=2)
    >>> chosen, gates.round(3)  # logits (0, 2, 1): experts 1 then 2
    (array([[1, 2]]), array([[0.731, 0.269]]))

    Taught on: docs/14-modern-decoder.md
    """
    x = real_array(x, "x", 2, "(..., n, d_model)")
    experts = np.shape(router)[-1]
    k = check_int(k, "k", 1)
    if k > experts:
        raise ValueError(f"k = {k} exceeds the {experts} experts")
    logits = x @ router  # (..., n, E)
    chosen = np.argsort(-logits, axis=-1, kind="stable")[..., :k]  # (..., n, k)
    gates = softmax(np.take_along_axis(logits, chosen, axis=-1))  # (..., n, k)
    return chosen, gates, softmax(logits)


def load_balancing_loss(probs, chosen):
    """Switch Transformer's auxiliary loss, E * sum_i f_i P_i, over every token given.

    probs: (..., n, E) router probabilities, chosen: (..., n, k) expert
    indices -> float: 1 for a perfectly uniform router; at most E/k, since f_i
    counts all k assignments of each token and no expert gets more than 1/k of
    them (E for a top-1 router that sends every token to one expert with
    probability 1). Multiply by a coefficient
    (alpha = 0.01 in Fedus et al. 2022, section 2.2) before adding it to the loss.

    >>> load_balancing_loss(np.full((4, 2), 0.5), np.array([[0], [1], [0], [1]]))  # uniform
    1.0

    Taught on: docs/14-modern-decoder.md
    """
    probs, chosen = np.asarray(probs, dtype=np.float64), np.asarray(chosen)
    experts = probs.shape[-1]
    if chosen.shape[:-1] != probs.shape[:-1]:
        raise ValueError(f"chosen {chosen.shape} and probs {probs.shape} must agree on every axis but the last")
    if chosen.size and (chosen.min() < 0 or chosen.max() >= experts):
        raise ValueError(f"chosen holds expert indices outside 0 .. {experts - 1}")
    f = np.bincount(chosen.ravel(), minlength=experts) / chosen.size  # (E,)
    P = probs.reshape(-1, experts).mean(axis=0)  # (tokens, E) averaged -> (E,)
    return float(experts * (f * P).sum())


def expert_capacity(tokens, experts, capacity_factor, k=1):
    """Assignments one expert may take per batch: ceil(k * tokens / experts * capacity_factor).

    tokens: in the batch, experts: E, capacity_factor > 0, k: experts per
    token -> int (Fedus et al. 2022, equation 3, rounded up)

    >>> expert_capacity(tokens=32, experts=8, capacity_factor=1.25, k=2)  # 8 per expert, 25% slack
    10

    Taught on: docs/14-modern-decoder.md
    """
    tokens, experts, k = check_int(tokens, "tokens", 0), check_int(experts, "experts", 1), check_int(k, "k", 1)
    capacity_factor = check_positive(capacity_factor, "capacity_factor")
    return math.ceil(k * tokens * capacity_factor / experts)


def within_capacity(chosen, experts, capacity):
    """Which assignments their expert has room for: first choices first, each in token order.

    chosen: (T, k) expert indices of T tokens, experts: E, capacity: per
    expert -> keep (T, k) bool; expert e keeps the first `capacity`
    assignments it receives in the order (all tokens' choice 0, then all
    tokens' choice 1, ...).

    >>> within_capacity(np.array([[0, 1], [0, 1], [0, 2]]), experts=3, capacity=2)
    array([[ True,  True],
           [ True,  True],
           [False,  True]])

    Taught on: docs/14-modern-decoder.md
    """
    chosen = np.asarray(chosen)
    if chosen.ndim != 2:
        raise ValueError(f"chosen must be (T, k), got shape {chosen.shape}")
    capacity = check_int(capacity, "capacity", 0)
    order = chosen.T.ravel()  # (k T,): choice 0 of every token, then choice 1, ...
    one_hot = order[:, None] == np.arange(experts)  # (k T, E)
    place = (np.cumsum(one_hot, axis=0) * one_hot).sum(axis=1)  # (k T,): 1 for an expert's first arrival
    return (place <= capacity).reshape(chosen.shape[1], chosen.shape[0]).T  # (k, T) -> (T, k)


def moe_feed_forward(x, params, k, capacity_factor=None):
    """The mixture-of-experts layer: each token through its top k experts, gated, within capacity.

    x: (..., n, d_model), pooled over every leading axis as one batch of
    tokens; params: as init_moe makes them; k: experts per token;
    capacity_factor: None for no limit -> (..., n, d_model). A dropped
    assignment adds nothing (the gates are not renormalised).

    >>> p = init_moe(np.random.default_rng(0), d_model=4, d_ff=6, experts=8)
    >>> moe_feed_forward(np.ones((3, 5, 4)), p, k=2).shape  # (batch, n, d_model)
    (3, 5, 4)

    Taught on: docs/14-modern-decoder.md
    """
    x = real_array(x, "x", 2, "(..., n, d_model)")
    tokens = x.reshape(-1, x.shape[-1])  # (T, d_model)
    chosen, gates, _ = route_top_k(tokens, params["router"], k)  # (T, k) each
    experts = len(params["experts"])
    keep = np.ones(chosen.shape, dtype=bool)
    if capacity_factor is not None:
        keep = within_capacity(chosen, experts, expert_capacity(len(tokens), experts, capacity_factor, k))
    out = np.zeros(tokens.shape, dtype=np.result_type(tokens.dtype, np.float32))  # (T, d_model)
    for e, expert in enumerate(params["experts"]):
        rows, slots = np.nonzero((chosen == e) & keep)  # the assignments expert e serves
        if rows.size:
            out[rows] += gates[rows, slots, None] * swiglu_feed_forward(tokens[rows], expert)
    return out.reshape(x.shape)  # (..., n, d_model)
