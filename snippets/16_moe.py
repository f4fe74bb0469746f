import numpy as np

from attn import count_parameters, init_moe, moe_feed_forward, route_top_k

# A mixture-of-experts layer: E SwiGLU experts and a router that picks the top k per token
# (page 14 builds it and checks it against a loop over tokens).
rng = np.random.default_rng(0)
n, d_model, d_ff, E, k = 16, 32, 128, 8, 2
layer = init_moe(rng, d_model, d_ff, E)
x = rng.standard_normal((n, d_model))  # (n, d_model)
chosen, gates, _ = route_top_k(x, layer["router"], k)  # (n, k) each
out = moe_feed_forward(x, layer, k)  # only k experts run per token
assert out.shape == x.shape

expert_params = count_parameters(layer["experts"][0])
total = count_parameters(layer)
active = k * expert_params + layer["router"].size
active_share = active / total  # the router counted in both
expert_share = k * expert_params / (E * expert_params)  # of the experts' parameters alone
expert_pct = 100 * expert_share
load = np.bincount(chosen.ravel(), minlength=E)  # tokens routed to each expert
print(f"{E} experts, top-{k}: parameters {total:,}, used per token {active:,} ({100 * active_share:.1f}%)")
print(f"of the experts' parameters: {expert_pct:.0f}%")
print("tokens per expert:", load.tolist())
