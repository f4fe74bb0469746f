"""Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5).

    PE(pos, 2i)     = sin(pos / base^(2i / d_model))
    PE(pos, 2i + 1) = cos(pos / base^(2i / d_model))

Taught on: docs/06-position.md
"""

import numpy as np

from ._validate import check_float_dtype, check_int, check_positive


def positional_encoding(n, d_model, base=10000.0, dtype=np.float64):
    """The sinusoidal encodings of positions 0..n-1.

    -> (n, d_model) of ``dtype`` (a floating dtype, float64 by default). Even
    columns 2i hold sin(pos / base^(2i/d_model)), odd columns 2i+1 the cos of
    the same angle; an odd d_model ends on a sin column. Row 0 is [0, 1, 0, 1, ...].
    The angles are computed in float64 and the result rounded once to ``dtype``,
    so a float32 table is the float64 one rounded: adding it to float32
    embeddings keeps them float32.

    >>> positional_encoding(3, 4).round(3)  # (n, d_model)
    array([[ 0.   ,  1.   ,  0.   ,  1.   ],
           [ 0.841,  0.54 ,  0.01 ,  1.   ],
           [ 0.909, -0.416,  0.02 ,  1.   ]])
    >>> positional_encoding(3, 4, dtype=np.float32).dtype
    dtype('float32')

    Taught on: docs/06-position.md
    """
    n = check_int(n, "n", minimum=0)
    d_model = check_int(d_model, "d_model", minimum=0)
    return position_rows(0, n, d_model, check_positive(base, "base"), check_float_dtype(dtype))


def position_rows(start, n, d_model, base=10000.0, dtype=np.float64):
    """Rows start .. start + n - 1 of the encodings, without computing the rows before them.

    -> (n, d_model) of ``dtype``, equal to positional_encoding(start + n, d_model,
    dtype=dtype)[start:]. A step of generation needs the row of one new position; building
    the whole table again at every step would cost O(start d_model) per token. Arguments
    are not checked (internal).
    """
    pos = np.arange(start, start + n, dtype=np.float64)[:, None]  # (n, 1)
    two_i = np.arange(0, d_model, 2, dtype=np.float64)  # (ceil(d_model / 2),)
    angle = pos / base ** (two_i / d_model)  # (n, ceil(d_model / 2))
    pe = np.empty((n, d_model), dtype=dtype)  # sin and cos rounded once, on assignment
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe
