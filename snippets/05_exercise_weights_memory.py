import numpy as np

from attn import count_parameters, init_multi_head
from attn.cost import attention_weights_bytes

d_model, n, itemsize = 512, 1024, 4  # the base model's width, 1024 tokens, float32
head_counts = [1, 8, 16]

weights_bytes = [attention_weights_bytes(n, h, batch=1, layers=1, itemsize=itemsize) for h in head_counts]
weights_mib = [b / 2**20 for b in weights_bytes]
by_formula = [h * n * n * itemsize for h in head_counts]  # one (n, n) matrix per head
formula_agrees = weights_bytes == by_formula
assert formula_agrees, "one (n, n) matrix per head: h * n * n * itemsize bytes"

# The projections do not depend on h: four (d_model, d_model) matrices, split into heads by columns.
parameters = count_parameters(init_multi_head(np.random.default_rng(0), d_model))

lines = [
    f"h = {h:>2}: weights {b:>10} bytes = {m:>4.0f} MiB"
    for h, b, m in zip(head_counts, weights_bytes, weights_mib, strict=True)
]
lines.append(f"parameters of W_q, W_k, W_v, W_o at d_model = {d_model}, any h dividing it: {parameters}")
print("\n".join(lines))
