"""Shared fixtures for the tests of the attn package (tests/test_attn_*.py)."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A fresh, seeded numpy Generator: the only source of randomness in the tests."""
    return np.random.default_rng(0)
