import json

import numpy as np

from attn import apply_rope, positional_encoding

d_k, n = 64, 65  # one head's width; offsets 0 .. 64
pe = positional_encoding(n, d_k)  # (n, d_k)
dot = pe[0] @ pe.T  # (n,): PE(0) . PE(k); the same from any start p
pairs = [0, 4, 8, 16, 31]  # feature pairs (2i, 2i + 1): fast to slow
ones = np.tile([1.0, 0.0], (n, d_k // 2))  # (n, d_k): (1, 0) in every pair
turned = apply_rope(ones)  # (n, d_k): row k is (1, 0) rotated for offset k
x, y = turned[:, 0::2][:, pairs], turned[:, 1::2][:, pairs]  # (n, len(pairs)) each
angle = np.degrees(np.arctan2(y, x)) % 360  # (n, len(pairs))

with open("positions.json", "w") as f:
    json.dump(
        {
            "d_k": d_k,
            "offsets": list(range(n)),
            "dot": dot.round(3).tolist(),
            "pairs": pairs,
            "angle": angle.round(1).tolist(),
            "x": x.round(3).tolist(),
            "y": y.round(3).tolist(),
        },
        f,
    )
