"""Sparse attention patterns of the Sparse Transformer (Child et al. 2019, section 4.3).

Each query attends to a subset of the keys before it, the union of two sets of stride l:

    strided:  j with 0 <= i - j < l (the last l positions), or (i - j) mod l = 0 (every l-th back)
    fixed:    j in the same block of l as i, or j in the last c positions of any earlier block

With l near sqrt(n) each query sees about 2 sqrt(n) keys instead of up to n, so the pairs scored
grow as n sqrt(n), not n^2, and two layers still connect every position to every earlier one
(checked with :func:`attn.window.receptive_field` on the page).

Taught on: docs/15-long-context.md
"""

import numpy as np

from ._validate import check_int


def strided_mask(n, stride):
    """The strided pattern: query i sees the last ``stride`` keys and every stride-th key back.

    n: positions, stride: l >= 1 -> bool (n, n), True where i >= j and (i - j < l or (i - j) % l == 0).

    >>> strided_mask(6, 2)[5].astype(int)  # (n,): keys 4, 5 (local) and 1, 3, 5 (strided)
    array([0, 1, 0, 1, 1, 1])

    Taught on: docs/15-long-context.md
    """
    n, stride = check_int(n, "n", 0), check_int(stride, "stride", 1)
    back = np.arange(n)[:, None] - np.arange(n)  # (n, n): i - j
    return (back >= 0) & ((back < stride) | (back % stride == 0))


def fixed_mask(n, stride, c=1):
    """The fixed pattern: query i sees its own block of ``stride`` and the last c keys of each earlier block.

    n: positions, stride: l >= 1, c: 1 <= c <= l -> bool (n, n), True where j <= i and
    (j // l == i // l or j % l >= l - c).

    >>> fixed_mask(6, 3)[5].astype(int)  # (n,): its block 3..5, and key 2 that ends block 0
    array([0, 0, 1, 1, 1, 1])

    Taught on: docs/15-long-context.md
    """
    n, stride = check_int(n, "n", 0), check_int(stride, "stride", 1)
    c = check_int(c, "c", 1)
    if c > stride:
        raise ValueError(f"c must be at most stride = {stride}, got {c}")
    i, j = np.arange(n)[:, None], np.arange(n)  # (n, 1), (n,)
    return (j <= i) & ((j // stride == i // stride) | (j % stride >= stride - c))


def strided_pairs(n, stride):
    """Query-key pairs the strided pattern scores: sum over i of min(i + 1, l) + floor(i / l).

    The local part gives row i min(i + 1, l) keys, the strided part floor(i / l) more (key i itself
    is in both, counted once). n, stride: ints -> int

    >>> strided_pairs(6, 2), int(strided_mask(6, 2).sum())
    (17, 17)

    Taught on: docs/15-long-context.md
    """
    n, stride = check_int(n, "n", 0), check_int(stride, "stride", 1)
    i = np.arange(n)  # (n,)
    return int(np.minimum(i + 1, stride).sum() + (i // stride).sum())
