"""attn.sizes: the counts by formula against counting the arrays of a toy model, and Meta's widths."""

import pytest

import attn


@pytest.mark.parametrize("experts, top_k, tied", [(1, 1, False), (1, 1, True), (4, 2, False), (8, 1, True)])
def test_counts_match_the_arrays_of_a_toy_model(rng, experts, top_k, tied):
    vocab, d_model, N, h, groups, d_ff = 11, 8, 3, 4, 2, 12
    layers = []
    for _ in range(N):
        block = attn.init_llama_block(rng, d_model, h, groups, d_ff)
        if experts > 1:
            block["ffn"] = attn.init_moe(rng, d_model, d_ff, experts)
        layers.append(block)
    embedding = rng.standard_normal((vocab, d_model))
    model = {"embedding": embedding, "layers": layers, "final_norm": rng.standard_normal(d_model)}
    if not tied:
        model["output"] = rng.standard_normal((d_model, vocab))
    counts = attn.decoder_parameter_counts(vocab, d_model, N, h, groups, d_ff, experts, top_k, tied)
    assert counts["total"] == attn.count_parameters(model)
    one_expert = attn.count_parameters(attn.init_swiglu(rng, d_model, d_ff))
    assert counts["total"] - counts["active"] == N * (experts - top_k) * one_expert


@pytest.mark.parametrize(
    "d_model, multiple_of, multiplier, expected",
    [(4096, 256, None, 11008), (5120, 256, None, 13824), (8192, 4096, 1.3, 28672), (3, 1, None, 8)],
)
def test_llama_d_ff(d_model, multiple_of, multiplier, expected):
    # the widths of the released Llama 2 7B, 13B and 70B configurations; 2 * 4 * 3 / 3 = 8 by hand
    assert attn.llama_d_ff(d_model, multiple_of, multiplier) == expected


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"h": 3}, "need h | d_model"),
        ({"groups": 3}, "need h | d_model"),
        ({"experts": 2, "top_k": 3}, "top_k = 3 exceeds experts = 2"),
        ({"vocab": 0}, "vocab"),
    ],
)
def test_refuses_inconsistent_configurations(kwargs, message):
    config = {"vocab": 10, "d_model": 8, "N": 1, "h": 4, "groups": 2, "d_ff": 6} | kwargs
    with pytest.raises(ValueError, match=message):
        attn.decoder_parameter_counts(**config)
