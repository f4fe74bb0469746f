"""Token embeddings and the output projection: one shared matrix E (Vaswani et al. 2017, 3.4).

    x = E[tokens] * sqrt(d_model) + PE          the embedding layers (3.4), positions added (3.5)
    logits = y E^T                               the pre-softmax linear transformation (3.4)

E is (vocab, d_model): row t is token t's vector. The source embedding, the
target embedding and the output projection all use the same E, so its
gradient is the sum of the three uses' gradients.

Taught on: docs/09-whole-model.md
"""

import math

import numpy as np

from .position import positional_encoding


def embed(tokens, E, position=True):
    """Token vectors scaled by sqrt(d_model), plus the sinusoidal positional encodings.

    tokens: int (..., n), E: (vocab, d_model), position: add PE (3.5) or not
    -> (..., n, d_model), of E's dtype: float32 weights give float32 vectors, the
    encodings rounded to float32 before they are added.

    >>> E = np.arange(12.0).reshape(3, 4)  # (vocab, d_model) = (3, 4)
    >>> embed(np.array([[2, 0]]), E, position=False)  # rows 2 and 0, times sqrt(4)
    array([[[16., 18., 20., 22.],
            [ 0.,  2.,  4.,  6.]]])
    >>> embed(np.array([[2, 0, 1]]), E).shape  # (batch, n, d_model)
    (1, 3, 4)

    Taught on: docs/09-whole-model.md
    """
    tokens = _check_tokens(tokens, E)
    n, d_model = tokens.shape[-1], E.shape[-1]
    x = E[tokens] * math.sqrt(d_model)  # (..., n, d_model), a new array
    if position:
        x += positional_encoding(n, d_model, dtype=x.dtype)  # (n, d_model), broadcast over the batch
    return x


def embed_backward(d_x, tokens, E):
    """The gradient of :func:`embed` with respect to E.

    Row t of dE sums sqrt(d_model) * d_x over every position holding token t.
    The positional encoding is a constant: adding it passes d_x through
    unchanged and has no gradient of its own.

    d_x: (..., n, d_model), tokens: int (..., n), E: (vocab, d_model)
    -> dE (vocab, d_model)

    >>> embed_backward(np.ones((1, 2, 4)), np.array([[2, 2]]), np.zeros((3, 4)))  # token 2, twice
    array([[0., 0., 0., 0.],
           [0., 0., 0., 0.],
           [4., 4., 4., 4.]])

    Taught on: docs/10-training.md
    """
    tokens = _check_tokens(tokens, E)
    vocab, d_model = E.shape
    one_hot = tokens.reshape(-1)[:, None] == np.arange(vocab)  # (positions, vocab)
    d_rows = d_x.reshape(-1, d_model) * math.sqrt(d_model)  # (positions, d_model)
    return one_hot.T @ d_rows  # (vocab, d_model)


def output_logits(y, E):
    """Scores for every vocabulary entry: logits = y E^T (the same E as the embedding).

    y: (..., n, d_model), E: (vocab, d_model) -> (..., n, vocab)

    >>> output_logits(np.ones((1, 2, 4)), np.ones((3, 4))).shape  # (batch, n, vocab)
    (1, 2, 3)

    Taught on: docs/09-whole-model.md
    """
    return y @ E.T


def output_logits_backward(d_logits, y, E):
    """The gradients of logits = y E^T: dy = d_logits E, dE = sum over positions of d_logits^T y.

    d_logits: (..., n, vocab), y: (..., n, d_model), E: (vocab, d_model)
    -> (dy (..., n, d_model), dE (vocab, d_model))

    >>> dy, dE = output_logits_backward(np.ones((1, 2, 3)), np.ones((1, 2, 4)), np.ones((3, 4)))
    >>> dy.shape, dE.shape
    ((1, 2, 4), (3, 4))

    Taught on: docs/10-training.md
    """
    vocab, d_model = E.shape
    dE = d_logits.reshape(-1, vocab).T @ y.reshape(-1, d_model)  # (vocab, d_model)
    return d_logits @ E, dE


def _check_tokens(tokens, E):
    """tokens -> an int array with every id in [0, vocab); else TypeError / ValueError."""
    tokens = np.asarray(tokens)
    if not np.issubdtype(tokens.dtype, np.integer) or tokens.ndim < 1:
        raise TypeError(
            f"tokens must be an integer array of at least one axis, got {tokens.dtype} with shape {tokens.shape}"
        )
    if tokens.size and (tokens.min() < 0 or tokens.max() >= E.shape[0]):
        raise ValueError(f"token ids must lie in [0, {E.shape[0]}), got {tokens.min()}..{tokens.max()}")
    return tokens
