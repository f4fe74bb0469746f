import numpy as np

from attn import softmax

# A mixture-of-experts feed-forward layer: E experts, each a ReLU network; a router picks the
# top k per token and mixes their outputs with the renormalised router weights.
rng = np.random.default_rng(0)
n, d_model, d_ff, E, k = 16, 32, 128, 8, 2
x = rng.standard_normal((n, d_model))                                   # (n, d_model)
W_router = rng.standard_normal((d_model, E)) / np.sqrt(d_model)         # (d_model, E)
W_1 = rng.standard_normal((E, d_model, d_ff)) / np.sqrt(d_model)        # (E, d_model, d_ff)
W_2 = rng.standard_normal((E, d_ff, d_model)) / np.sqrt(d_ff)           # (E, d_ff, d_model)

gate = softmax(x @ W_router)                                            # (n, E)
chosen = np.argsort(gate, axis=1)[:, -k:]                               # (n, k): top-k experts
g = np.take_along_axis(gate, chosen, axis=1)
g /= g.sum(axis=1, keepdims=True)                                       # (n, k): sums to 1
out = np.zeros_like(x)
for t in range(n):                                                      # only k experts run per token
    for e, w in zip(chosen[t], g[t], strict=True):
        out[t] += w * (np.maximum(0, x[t] @ W_1[e]) @ W_2[e])

# Dense reference: run every expert, zero the weights of the ones not chosen.
dense_w = np.zeros((n, E))
np.put_along_axis(dense_w, chosen, g, axis=1)
every = np.einsum("nef,efd->ned", np.maximum(0, np.einsum("nd,edf->nef", x, W_1)), W_2)  # (n, E, d_model)
assert np.abs(out - np.einsum("ne,ned->nd", dense_w, every)).max() < 1e-12

expert_params = W_1[0].size + W_2[0].size
total = E * expert_params + W_router.size
active = k * expert_params + W_router.size
active_share = active / total
load = np.bincount(chosen.ravel(), minlength=E)                         # tokens routed to each expert
print(f"{E} experts, top-{k}: parameters {total:,}, used per token {active:,} ({active_share:.2f})")
print("tokens per expert:", load.tolist())
