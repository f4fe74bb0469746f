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
def small_config():
    """A small encoder-decoder configuration with dropout, label smoothing and 0 as its padding
    token (vocab 9, d_model 8, h 2, N 2)."""
    return attn.Config(vocab=9, d_model=8, h=2, d_ff=16, N=2, p_drop=0.1, eps_ls=0.1, pad=0)


@pytest.fixture
def batch(small_config):
    """``batch(rng, config=small_config, size=3, m=5, n=4)`` -> (source (size, m), target (size, n + 1)):
    token ids drawn from ``rng``, the target starting with 1 (the begin token), padded with 0 at the ends."""

    def draw(rng, config=small_config, size=3, m=5, n=4):
        source = rng.integers(2, config.vocab, (size, m))
        target = np.concatenate([np.ones((size, 1), dtype=int), rng.integers(2, config.vocab, (size, n))], axis=1)
        source[0, -2:] = 0
        target[1, -1:] = 0
        return source, target

    return draw


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
