import numpy as np

from attn import top_k, top_p

probs = np.array([0.5, 0.25, 0.15, 0.1])  # four tokens, most probable first
nucleus = top_p(probs, 0.8)
kept = int((nucleus > 0).sum())
print("top-p, p = 0.8:", nucleus.round(4), f"({kept} kept)")
print("top-k, k = 3:  ", top_k(probs, 3).round(4))
