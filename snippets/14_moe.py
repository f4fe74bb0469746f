# %% setup
import numpy as np

from attn import (
    decoder_parameter_counts,
    expert_capacity,
    init_moe,
    load_balancing_loss,
    moe_feed_forward,
    route_top_k,
    swiglu_feed_forward,
    within_capacity,
)

rng = np.random.default_rng(0)
tokens, d_model, d_ff, E, k = 16, 8, 16, 8, 2
layer = init_moe(rng, d_model, d_ff, E)
x = rng.standard_normal((tokens, d_model))  # (tokens, d_model)

# %% route
chosen, gates, probs = route_top_k(x, layer["router"], k)  # (tokens, k), (tokens, k), (tokens, E)
load = np.bincount(chosen.ravel(), minlength=E)  # assignments per expert
print("token 0: experts", chosen[0], "gates", gates[0].round(3))
print("assignments per expert:", load, "sum", load.sum())

# %% loop
y = moe_feed_forward(x, layer, k)
by_hand = np.zeros_like(x)
for t in range(tokens):  # token by token: only its k experts run
    for e, g in zip(chosen[t], gates[t], strict=True):
        by_hand[t] += g * swiglu_feed_forward(x[t], layer["experts"][e])
same_as_loop = bool(np.allclose(y, by_hand))
assert same_as_loop, "moe_feed_forward must equal the loop over tokens"

# %% balance
uniform_probs = np.full((tokens, E), 1 / E)
uniform_chosen = np.arange(tokens * k).reshape(tokens, k) % E  # (tokens, k): each expert 4 times
collapsed_probs = np.zeros((tokens, E))
collapsed_probs[:, 0] = 1.0  # the router always prefers expert 0
collapsed_chosen = np.argsort(-collapsed_probs, axis=-1, kind="stable")[:, :k]  # (tokens, k): 0, then 1
balance = {
    "uniform": load_balancing_loss(uniform_probs, uniform_chosen),
    "this router": load_balancing_loss(probs, chosen),
    "collapsed, top-2": load_balancing_loss(collapsed_probs, collapsed_chosen),
    "collapsed, top-1": load_balancing_loss(collapsed_probs, collapsed_chosen[:, :1]),
}
balance_uniform, balance_router, balance_collapsed, balance_collapsed_top1 = balance.values()
for name, value in balance.items():
    print(f"balance loss, {name}: {value:.3f}")

# %% ceiling
# Each token adds at most 1 of its k assignments to an expert, so f_i <= 1/k and the loss <= E/k.
assert np.isclose(balance_collapsed, E / k), "every token on the same k experts reaches the cap E/k"
assert max(balance_uniform, balance_router) <= E / k, "top-k caps the loss at E/k"

# %% capacity
factors = [0.5, 1.0, 1.25, 2.0]
capacities, dropped, lost_one, lost_both = [], [], [], []
for factor in factors:
    capacities.append(expert_capacity(tokens, E, factor, k))  # ceil(k * tokens / E * factor)
    keep = within_capacity(chosen, E, capacities[-1])  # (tokens, k)
    dropped.append(int((~keep).sum()))
    lost_one.append(int(((~keep).sum(axis=1) == 1).sum()))
    lost_both.append(int((~keep).all(axis=1).sum()))
print("factor  capacity  dropped of 32  tokens losing one expert  losing both")
for row in zip(factors, capacities, dropped, lost_one, lost_both, strict=True):
    print("{:>6}  {:>8}  {:>13}  {:>24}  {:>11}".format(*row))

# %% dropped
keep = within_capacity(chosen, E, expert_capacity(tokens, E, 0.5, k))
y_half = moe_feed_forward(x, layer, k, capacity_factor=0.5)
gone = (~keep).all(axis=1)  # (tokens,): every assignment over capacity
zero_when_gone = bool(np.all(y_half[gone] == 0))  # x + 0: the residual carries the token on
t = int(np.flatnonzero(keep[:, 0] & ~keep[:, 1])[0])  # a token that kept only its first choice
e = chosen[t, 0]
only_first = bool(np.allclose(y_half[t], gates[t, 0] * swiglu_feed_forward(x[t], layer["experts"][e])))
assert zero_when_gone, "a token that loses both experts must get 0 from the layer"
assert only_first, "a token that keeps one expert must keep its gate, not renormalised"
print(f"capacity factor 0.5: {int(gone.sum())} tokens get 0 from the layer")
print(f"token {t} keeps expert {e} alone, at its gate {gates[t, 0]:.3f}, not renormalised")

# %% mixtral
# Mixtral 8x7B (Jiang et al. 2024, Table 1): Mistral 7B's shape, each FFN made 8 experts, top 2.
mixtral = dict(vocab=32000, d_model=4096, N=32, h=32, groups=8, d_ff=14336, experts=8, top_k=2)
counts = decoder_parameter_counts(**mixtral)
total_b, active_b = counts["total"] / 1e9, counts["active"] / 1e9  # billions
expert_share = counts["ffn"] / counts["total"]
expert_pct = round(100 * expert_share)  # the same, in percent
print(f"total {counts['total']:,} = {total_b:.1f}B, active {counts['active']:,} = {active_b:.1f}B")
print(f"the experts hold {expert_pct}% of the total")

# %% flops
# A forward pass does about 2 FLOPs per weight it multiplies by (one multiply, one add); the
# embedding is a lookup, not a product. Attention over the context comes on top (page 08).
flops_moe = 2 * (counts["active"] - counts["embedding"])
flops_dense = 2 * (counts["total"] - counts["embedding"])  # a dense model of the same total
flops_ratio = flops_moe / flops_dense
gflops_moe, gflops_dense = flops_moe / 1e9, flops_dense / 1e9
print(f"per token: MoE {flops_moe / 1e9:.1f} GFLOPs, dense of the same total {flops_dense / 1e9:.1f}")
print(f"ratio {flops_ratio:.3f}")
