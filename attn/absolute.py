"""Learned absolute position embeddings: one trained vector per position, up to a fixed length.

The alternative the Transformer paper tried to its sinusoids (Vaswani et al.
2017, section 3.5 and Table 3, row E): a table P of n_max rows, learned like
the word embeddings, and row p added to the token at position p. The table
has no row for position n_max or beyond, so such a model cannot even be run
on a longer input.

Taught on: docs/12-positions-after-2017.md
"""

import numpy as np

from ._validate import check_int, check_rng


def init_learned_positions(rng, n_max, d_model, scale=0.02):
    """A table of n_max position vectors to be learned, drawn N(0, scale^2).

    -> (n_max, d_model) float64

    >>> init_learned_positions(np.random.default_rng(0), n_max=16, d_model=8).shape  # (n_max, d_model)
    (16, 8)

    Taught on: docs/12-positions-after-2017.md
    """
    check_rng(rng)
    n_max, d_model = check_int(n_max, "n_max", 1), check_int(d_model, "d_model", 1)
    return rng.standard_normal((n_max, d_model)) * scale


def learned_positions(table, n):
    """The vectors of positions 0 .. n - 1, to add to n token embeddings.

    table: (n_max, d_model), n <= n_max -> (n, d_model), a copy. Raises
    ValueError for n > n_max: the table has no row for those positions.

    >>> table = np.arange(6.0).reshape(3, 2)  # (n_max, d_model)
    >>> learned_positions(table, 2)
    array([[0., 1.],
           [2., 3.]])

    Taught on: docs/12-positions-after-2017.md
    """
    table = np.asarray(table)
    n = check_int(n, "n", 0)
    if table.ndim != 2:
        raise ValueError(f"table must be (n_max, d_model), got shape {table.shape}")
    if n > table.shape[0]:
        raise ValueError(f"the table holds positions 0 .. {table.shape[0] - 1}; position {n - 1} has no vector")
    return table[:n].copy()
