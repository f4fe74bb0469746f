"""attn.llama: the Llama-style block against the same block written head by head."""

import numpy as np
import pytest

import attn


def block_head_by_head(x, p, h, groups, positions):
    """Pre-norm RMSNorm, RoPE on each head's q and k, each query head reading its group's k and v, SwiGLU."""
    n, d_model = x.shape
    d_k = d_model // h
    z = x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 1e-6) * p["attn_norm"]["gamma"]
    heads = []
    for head in range(h):
        group = head // (h // groups)
        a = p["self_attn"]
        q = attn.apply_rope(z @ a["W_q"][:, head * d_k : (head + 1) * d_k], positions)
        k = attn.apply_rope(z @ a["W_k"][:, group * d_k : (group + 1) * d_k], positions)
        v = z @ a["W_v"][:, group * d_k : (group + 1) * d_k]
        scores = q @ k.T / np.sqrt(d_k)
        scores[np.triu_indices(n, 1)] = -np.inf  # a query sees itself and the past
        w = np.exp(scores - scores.max(axis=1, keepdims=True))
        heads.append((w / w.sum(axis=1, keepdims=True)) @ v)
    x = x + np.concatenate(heads, axis=1) @ p["self_attn"]["W_o"]
    z = x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 1e-6) * p["ffn_norm"]["gamma"]
    f = p["ffn"]
    a = z @ f["W"]
    return x + (a / (1 + np.exp(-a)) * (z @ f["V"])) @ f["W_2"]


@pytest.mark.parametrize("h, groups", [(4, 4), (4, 2), (4, 1)])
def test_block_matches_the_head_by_head_version(rng, h, groups):
    p = attn.init_llama_block(rng, 8, h, groups, 12)
    p["attn_norm"]["gamma"] = rng.standard_normal(8)
    x, positions = rng.standard_normal((6, 8)), np.arange(6) + 5
    got = attn.llama_block(x, p, h, groups, positions)
    np.testing.assert_allclose(got, block_head_by_head(x, p, h, groups, positions), atol=1e-12)


def test_block_is_causal(rng):
    p = attn.init_llama_block(rng, 8, 4, 2, 12)
    x = rng.standard_normal((6, 8))
    later = x.copy()
    later[4:] += 10.0
    np.testing.assert_allclose(attn.llama_block(x, p, 4, 2)[:4], attn.llama_block(later, p, 4, 2)[:4], atol=1e-12)


def test_attention_depends_on_offsets_only(rng):
    # shifting every position by the same amount changes no score, so no output
    p = attn.init_llama_block(rng, 8, 4, 2, 12)
    x = rng.standard_normal((2, 5, 8))
    a = attn.rope_grouped_attention(x, p["self_attn"], 4, 2)
    b = attn.rope_grouped_attention(x, p["self_attn"], 4, 2, positions=np.arange(5) + 100)
    np.testing.assert_allclose(a, b, atol=1e-10)


def test_parameter_count_matches_the_formula(rng):
    p = attn.init_llama_block(rng, 16, 4, 2, 24)
    counts = attn.decoder_parameter_counts(vocab=1, d_model=16, N=1, h=4, groups=2, d_ff=24)
    assert attn.count_parameters(p) == counts["attention"] + counts["ffn"] + 2 * 16


@pytest.mark.parametrize("h, groups", [(3, 1), (4, 3)])
def test_init_refuses_shapes_that_do_not_divide(rng, h, groups):
    with pytest.raises(ValueError, match="need h | d_model and groups | h"):
        attn.init_llama_block(rng, 8, h, groups, 12)
