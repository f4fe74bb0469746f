# %% one
import numpy as np

from attn import count_parameters
from attn.cost import attention_flops

# The values do not matter here, only the shapes.
rng = np.random.default_rng(0)
d_model = 8

# One head as wide as the model:
# four (d_model, d_model) matrices.
one_head = {name: rng.standard_normal((d_model, d_model)) for name in ("W_q", "W_k", "W_v", "W_o")}
one_head_count = count_parameters(one_head)
print(f"one head of width {d_model}: {one_head_count} weights")

# %% split
# h narrower heads, each with its own three projections,
# and one shared output matrix.
h = 2
d_k = d_v = d_model // h
heads = [
    # (d_model, d_k) each
    {name: rng.standard_normal((d_model, d_k)) for name in ("W_q", "W_k", "W_v")}
    for _ in range(h)
]
# (h * d_v, d_model): mixes the concatenated heads
W_o = rng.standard_normal((h * d_v, d_model))
two_head_count = count_parameters({"heads": heads, "W_o": W_o})
per_head_count = count_parameters(heads[0])
output_count = count_parameters(W_o)
detail = f"{h} x {per_head_count} + {output_count} in W_o"
print(f"{h} heads of width {d_k}: {detail} = {two_head_count} weights")

# %% side
# Side by side, the heads' query projections
# are one full-width matrix: (d_model, h * d_k).
W_qs = [head["W_q"] for head in heads]
W_q_side_by_side = np.concatenate(W_qs, axis=1)
print("heads' W_q side by side:", W_q_side_by_side.shape)

# The position-mixing work splits the same way:
# h heads of width d_k cost one head of width d_model.
n = 4
one_head_flops = attention_flops(n, d_model)
two_head_flops = h * attention_flops(n, d_k)
print(f"attention FLOPs for {n} tokens:", end=" ")
print(f"one head {one_head_flops}, {h} heads {two_head_flops}")
