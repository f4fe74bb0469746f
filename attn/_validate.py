"""Argument checks shared by the attn modules. Private: no page teaches them."""

import numpy as np


def check_int(value, name, minimum):
    """value -> ``value`` as a Python int >= ``minimum``; else TypeError / ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)
