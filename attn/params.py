"""Counting parameters.

Taught on: docs/05-multi-head.md
"""

import numpy as np


def count_parameters(params):
    """Total number of scalars in a nested dict / list / tuple of arrays.

    Sums ``.size`` over every numpy array (or numpy scalar) found; raises
    TypeError on any other leaf, so a typo cannot silently count as 0.
    -> int

    >>> count_parameters({"W": np.ones((3, 4)), "norm": [np.ones(4), np.zeros(4)]})  # 12 + 4 + 4
    20

    Taught on: docs/05-multi-head.md
    """
    if isinstance(params, (np.ndarray, np.generic)):
        return int(params.size)
    if isinstance(params, dict):
        return sum(count_parameters(value) for value in params.values())
    if isinstance(params, (list, tuple)):
        return sum(count_parameters(value) for value in params)
    raise TypeError(f"cannot count parameters in a {type(params).__name__}")
