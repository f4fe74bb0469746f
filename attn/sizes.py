"""Parameter counts of a Llama-shaped decoder from its published configuration.

A configuration is a handful of integers: vocab, d_model, N layers, h query
heads, groups key/value heads, d_ff, and for a mixture of experts the number
of experts per layer and how many each token uses (top_k). Per layer:

    attention   2 d_model^2 + 2 d_model (groups d_k),   d_k = d_model / h
    SwiGLU      3 d_model d_ff, per expert
    router      d_model experts                         (only with experts > 1)
    RMSNorm     2 d_model

plus the token embedding and the output projection (vocab d_model each,
one matrix when tied) and the final RMSNorm (d_model).

Taught on: docs/14-modern-decoder.md
"""

from ._validate import check_int


def llama_d_ff(d_model, multiple_of, ffn_dim_multiplier=None):
    """The SwiGLU width of Meta's released Llama code: 2/3 of 4 d_model, scaled, rounded up.

    int(2 * 4 d_model / 3), times ffn_dim_multiplier when given (then
    truncated), rounded up to a multiple of multiple_of -> int

    >>> llama_d_ff(4096, multiple_of=256)  # Llama 2 7B
    11008

    Taught on: docs/14-modern-decoder.md
    """
    d_model, multiple_of = check_int(d_model, "d_model", 1), check_int(multiple_of, "multiple_of", 1)
    hidden = int(2 * 4 * d_model / 3)
    if ffn_dim_multiplier is not None:
        hidden = int(ffn_dim_multiplier * hidden)
    return multiple_of * -(-hidden // multiple_of)  # ceil to a multiple


def decoder_parameter_counts(vocab, d_model, N, h, groups, d_ff, experts=1, top_k=1, tied=False):
    """The parameters of a Llama-shaped decoder, by part, and how many one token uses.

    -> dict of ints: "embedding", "output" (0 when tied), "attention",
    "ffn" (all experts), "router", "norms", "total", and "active": the
    parameters one token's forward pass multiplies by or adds (its top_k
    experts of each layer, everything else; the embedding row it looks up
    counted whole, as published totals do).

    >>> counts = decoder_parameter_counts(vocab=10, d_model=4, N=1, h=2, groups=1, d_ff=6)
    >>> counts["attention"], counts["ffn"], counts["total"]  # 2*16 + 2*4*2, 3*4*6, ...
    (48, 72, 212)

    Taught on: docs/14-modern-decoder.md
    """
    vocab, d_model, N = check_int(vocab, "vocab", 1), check_int(d_model, "d_model", 1), check_int(N, "N", 0)
    h, groups, d_ff = check_int(h, "h", 1), check_int(groups, "groups", 1), check_int(d_ff, "d_ff", 1)
    experts, top_k = check_int(experts, "experts", 1), check_int(top_k, "top_k", 1)
    if d_model % h or h % groups:
        raise ValueError(f"need h | d_model and groups | h, got d_model = {d_model}, h = {h}, groups = {groups}")
    if top_k > experts:
        raise ValueError(f"top_k = {top_k} exceeds experts = {experts}")
    kv_width = groups * (d_model // h)
    expert = 3 * d_model * d_ff
    counts = {
        "embedding": vocab * d_model,
        "output": 0 if tied else vocab * d_model,
        "attention": N * (2 * d_model * d_model + 2 * d_model * kv_width),
        "ffn": N * experts * expert,
        "router": N * d_model * experts if experts > 1 else 0,
        "norms": N * 2 * d_model + d_model,
    }
    counts["total"] = sum(counts.values())
    counts["active"] = counts["total"] - N * (experts - top_k) * expert
    return counts
