import json

import numpy as np

from attn import softmax

rng = np.random.default_rng(0)
d_ks = [4, 16, 64, 256, 1024]  # the widths of the simulation above
n = 10  # keys per query, as above
weights = {"unscaled": [], "scaled": []}
for d_k in d_ks:
    q = rng.standard_normal(d_k)  # (d_k,): one query
    keys = rng.standard_normal((n, d_k))  # (n, d_k): ten random keys
    scores = keys @ q  # (n,)
    weights["unscaled"].append(softmax(scores).round(3).tolist())
    weights["scaled"].append(softmax(scores / np.sqrt(d_k)).round(3).tolist())
top = {kind: [int(np.argmax(row)) for row in rows] for kind, rows in weights.items()}  # largest key

with open("temperature.json", "w") as f:
    json.dump({"d_k": d_ks, "keys": n, "weights": weights, "top": top}, f)
