"""Log-probabilities and the training loss: cross-entropy with label smoothing.

    log p = logits - max - log(sum(exp(logits - max)))          a stable log-softmax
    q = (1 - eps_ls) * one_hot(target) + eps_ls / vocab           label smoothing (Vaswani et al.
                                                                  2017, 5.4; Szegedy et al. 2016, 7)
    loss = mean over real positions of -sum_k q_k log p_k

Positions whose target is the padding id are not predictions: they add
nothing to the loss and get no gradient.

Taught on: docs/09-whole-model.md
"""

import numpy as np

from ._validate import check_float_dtype


def log_softmax(logits):
    """log(softmax(logits)) along the last axis, without overflow or log(0).

    Subtracting each row's maximum first makes every exponent <= 0, so the
    sum lies in [1, vocab] and its log is finite: logits of 1e4 give finite
    log-probabilities where log(softmax) by the textbook formula gives nan.

    logits: finite (..., vocab) -> (..., vocab), each row's exp sums to 1

    >>> log_softmax(np.array([1000.0, 1000.0])).round(4)  # log(1/2), where log(softmax) gives nan
    array([-0.6931, -0.6931])

    Taught on: docs/09-whole-model.md
    """
    logits = np.asarray(logits, dtype=np.result_type(np.asarray(logits).dtype, np.float32))
    shifted = logits - logits.max(axis=-1, keepdims=True)  # (..., vocab), every entry <= 0
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def smoothed_targets(targets, vocab, eps_ls=0.1, dtype=np.float64):
    """The distribution each prediction is trained towards.

    q = (1 - eps_ls) * one_hot(target) + eps_ls / vocab: the right token
    gets 1 - eps_ls + eps_ls / vocab, every other token eps_ls / vocab.

    targets: int (..., n), vocab: int, dtype: a floating dtype
    -> (..., n, vocab) of ``dtype``, each row sums to 1

    >>> smoothed_targets(np.array([1]), 4, eps_ls=0.1)  # (n, vocab)
    array([[0.025, 0.925, 0.025, 0.025]])

    Taught on: docs/09-whole-model.md
    """
    targets = np.asarray(targets)
    if not 0.0 <= eps_ls <= 1.0:
        raise ValueError(f"eps_ls must lie in [0, 1], got {eps_ls!r}")
    one_hot = (targets[..., None] == np.arange(vocab)).astype(check_float_dtype(dtype))  # (..., n, vocab)
    return (1.0 - eps_ls) * one_hot + eps_ls / vocab


def cross_entropy(logits, targets, eps_ls=0.1, pad=None):
    """Mean cross-entropy between the smoothed targets and the model's distribution.

    logits: (..., n, vocab), targets: int (..., n), eps_ls: label smoothing,
    pad: the padding id (positions whose target is pad are skipped) or None
    -> float, the mean over the real positions (0.0 if there are none)

    >>> cross_entropy(np.zeros((1, 2, 4)), np.array([[3, 0]]), eps_ls=0.0, pad=0)  # log 4; the pad is skipped
    1.3862943611198906

    Taught on: docs/09-whole-model.md
    """
    q, real, count = _targets(logits, targets, eps_ls, pad)
    per_position = -(q * log_softmax(logits)).sum(axis=-1)  # (..., n)
    return float((per_position * real).sum() / count)


def cross_entropy_backward(logits, targets, eps_ls=0.1, pad=None):
    """The gradient of :func:`cross_entropy` with respect to the logits: (p - q) / count.

    logits: (..., n, vocab), targets: int (..., n) -> d_logits (..., n, vocab),
    all zero at padding positions, in the logits' floating dtype (float32 stays
    float32, so the backward pass that follows does too)

    >>> cross_entropy_backward(np.zeros((1, 1, 2)), np.array([[1]]), eps_ls=0.0)  # p - q
    array([[[ 0.5, -0.5]]])

    Taught on: docs/10-training.md
    """
    q, real, count = _targets(logits, targets, eps_ls, pad)
    p = np.exp(log_softmax(logits))  # (..., n, vocab)
    return (p - q) * (real[..., None] / count)


def _targets(logits, targets, eps_ls, pad):
    """-> q (..., n, vocab), real (..., n) as 0.0 / 1.0, both in the logits' floating dtype,
    and count (>= 1) of real positions."""
    targets = np.asarray(targets)
    logits = np.asarray(logits)
    dtype = np.result_type(logits.dtype, np.float32)  # ints -> float64, as log_softmax does
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets {targets.shape} must have the shape of logits {logits.shape} without its last axis")
    if not np.issubdtype(targets.dtype, np.integer):
        raise TypeError(f"targets must be integers, got {targets.dtype}")
    real = np.ones(targets.shape, dtype) if pad is None else (targets != pad).astype(dtype)  # (..., n)
    count = max(float(np.count_nonzero(real)), 1.0)
    return smoothed_targets(targets, logits.shape[-1], eps_ls, dtype), real, count
