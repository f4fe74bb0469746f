"""The paper's optimizer: Adam (beta1 = 0.9, beta2 = 0.98, eps = 1e-9) and the eq. 3 schedule.

    lrate = d_model^-0.5 * min(step^-0.5, step * warmup_steps^-1.5)      (Vaswani et al. 2017, eq. 3)

    m <- beta1 m + (1 - beta1) g,   v <- beta2 v + (1 - beta2) g^2      (Kingma and Ba 2015, Algorithm 1)
    theta <- theta - lrate * (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps)

Parameters, gradients and Adam's moments are nested dicts and lists of
arrays of one structure. :func:`adam_step` returns new arrays; it never
writes to the caller's.

Taught on: docs/10-training.md
"""

import numpy as np

from ._validate import check_int


def learning_rate(step, d_model, warmup_steps=4000):
    """The learning rate of eq. 3: linear warm-up, then decay as 1 / sqrt(step).

    step: int >= 1, d_model: int, warmup_steps: int >= 1 (the paper uses 4000)
    -> float; the peak, at step = warmup_steps, is (d_model * warmup_steps)^-0.5

    >>> round(learning_rate(4000, 512), 7)  # the base model's peak, (512 * 4000)^-0.5
    0.0006988

    Taught on: docs/09-whole-model.md
    """
    step = check_int(step, "step", 1)
    d_model, warmup_steps = check_int(d_model, "d_model", 1), check_int(warmup_steps, "warmup_steps", 1)
    return d_model**-0.5 * min(step**-0.5, step * warmup_steps**-1.5)


def init_adam(params):
    """Adam's state before the first step: both moments zero, no step taken.

    params: nested dicts / lists of arrays
    -> {"m": zeros like params, "v": zeros like params, "t": 0}

    >>> init_adam({"w": np.ones(2)})
    {'m': {'w': array([0., 0.])}, 'v': {'w': array([0., 0.])}, 't': 0}

    Taught on: docs/10-training.md
    """
    return {"m": _map(np.zeros_like, params), "v": _map(np.zeros_like, params), "t": 0}


def adam_step(params, grads, state, lr, beta1=0.9, beta2=0.98, eps=1e-9):
    """One Adam update with bias correction; the defaults are the paper's (5.3).

    params, grads: the same nested structure of arrays, state: from
    :func:`init_adam` or the previous step, lr: this step's learning rate
    -> (new params, new state), both new arrays

    >>> params = {"w": np.array([1.0, -1.0])}
    >>> new, state = adam_step(params, {"w": np.array([0.5, -2.0])}, init_adam(params), lr=0.1)
    >>> new["w"].round(6), state["t"]  # the first step moves each entry by lr
    (array([ 0.9, -0.9]), 1)

    Taught on: docs/10-training.md
    """
    t = state["t"] + 1
    m_scale, v_scale = 1.0 / (1.0 - beta1**t), 1.0 / (1.0 - beta2**t)  # bias correction

    def update(p, g, m, v):
        m = beta1 * m + (1.0 - beta1) * g
        v = beta2 * v + (1.0 - beta2) * g * g
        return p - lr * (m * m_scale) / (np.sqrt(v * v_scale) + eps), m, v

    new, m, v = _unzip(_map(update, params, grads, state["m"], state["v"]), 3)  # one walk over the tree
    return new, {"m": m, "v": v, "t": t}


def _map(fn, *trees):
    """fn applied leaf by leaf to trees of one structure -> a tree of that structure."""
    first = trees[0]
    if isinstance(first, dict):
        for tree in trees[1:]:
            if not isinstance(tree, dict) or tree.keys() != first.keys():
                raise ValueError(f"structures differ: keys {sorted(first)} and {_describe(tree)}")
        return {key: _map(fn, *(tree[key] for tree in trees)) for key in first}
    if isinstance(first, (list, tuple)):
        for tree in trees[1:]:
            if not isinstance(tree, (list, tuple)) or len(tree) != len(first):
                raise ValueError(f"structures differ: a list of {len(first)} and {_describe(tree)}")
        return [_map(fn, *items) for items in zip(*trees, strict=True)]
    for tree in trees[1:]:
        if np.shape(tree) != np.shape(first):
            raise ValueError(f"shapes differ: {np.shape(first)} and {np.shape(tree)}")
    return fn(*trees)


def _unzip(tree, k):
    """A tree whose leaves are k-tuples (as :func:`_map` returns them) -> k trees of that structure."""
    if isinstance(tree, dict):
        parts = [_unzip(value, k) for value in tree.values()]
        return tuple(dict(zip(tree, column, strict=True)) for column in zip(*parts, strict=True))
    if isinstance(tree, list):
        parts = [_unzip(item, k) for item in tree]
        return tuple(list(column) for column in zip(*parts, strict=True)) if parts else tuple([] for _ in range(k))
    return tree


def _describe(tree):
    """A short description of a tree node, for error messages."""
    if isinstance(tree, dict):
        return f"keys {sorted(tree)}"
    if isinstance(tree, (list, tuple)):
        return f"a list of {len(tree)}"
    return f"a leaf of shape {np.shape(tree)}"
