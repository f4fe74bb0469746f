"""Shared fixtures for the tests of the attn package (tests/attn/)."""

import numpy as np
import pytest

import attn


@pytest.fixture
def rng():
    """A fresh, seeded numpy Generator: the only source of randomness in the tests."""
    return np.random.default_rng(0)


def _central_differences(f, x, eps=1e-6):
    """dF/dx by central differences, entry by entry: (f(x + eps e_i) - f(x - eps e_i)) / 2 eps.

    f: a function of x (written to in place and restored) returning a float -> an array like x.
    """
    grad = np.zeros_like(x, dtype=np.float64)
    for index in np.ndindex(x.shape):
        original = x[index]
        x[index] = original + eps
        above = f()
        x[index] = original - eps
        below = f()
        x[index] = original
        grad[index] = (above - below) / (2 * eps)
    return grad


@pytest.fixture
def central_differences():
    """The finite-difference gradient: ``central_differences(f, x)``, f taking no argument and reading x."""
    return _central_differences


@pytest.fixture
def relative_error():
    """|a - b| / max(|a|, |b|) over whole arrays (Euclidean norms); 0 when both are 0."""

    def error(a, b):
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        scale = max(np.linalg.norm(a), np.linalg.norm(b))
        return 0.0 if scale == 0 else float(np.linalg.norm(a - b) / scale)

    return error


@pytest.fixture
def lm_config():
    """A small decoder-only configuration without a padding token (vocab 11, d_model 12, h 3, N 3)."""
    return attn.Config(vocab=11, d_model=12, h=3, d_ff=24, N=3, pad=None)


@pytest.fixture
def lm(rng, lm_config):
    """A random decoder-only model of lm_config."""
    return attn.init_decoder_only(rng, lm_config)


@pytest.fixture
def grouped_by_copying():
    """``grouped_by_copying(x, memory, params, h, groups, mask)``: the reference of grouped-query attention."""

    def grouped_by_copying(x, memory, params, h, groups, mask=None):
        """Grouped-query attention with every key/value head copied out to its h / groups query heads."""
        d_k = params["W_q"].shape[1] // h
        out = []
        for head in range(h):
            group = head // (h // groups)
            q = x @ params["W_q"][:, head * d_k : (head + 1) * d_k]
            k = memory @ params["W_k"][:, group * d_k : (group + 1) * d_k]
            v = memory @ params["W_v"][:, group * d_k : (group + 1) * d_k]
            out.append(attn.scaled_dot_product_attention(q, k, v, mask))
        return np.concatenate(out, axis=-1) @ params["W_o"]

    return grouped_by_copying
