import numpy as np

from attn import apply_rope

# d_k = 2: one feature pair, turning by theta_0 = 10000^0 = 1 radian per position.
q = np.array([1.0, 0.0])
k = np.array([0.0, 1.0])
pairs = [(2, 5), (10, 13), (5, 2)]  # (m, p): query position, key position


def rope_score(m, p):
    """(R_m q) . (R_p k), rotating with attn.apply_rope."""
    q_m = apply_rope(q[None, :], positions=np.array([m]))[0]  # (d_k,)
    k_p = apply_rope(k[None, :], positions=np.array([p]))[0]  # (d_k,)
    return float(q_m @ k_p)


scores = [rope_score(m, p) for m, p in pairs]
by_hand = [float(np.sin(m - p)) for m, p in pairs]  # the derivation: sin(m - p)
agree = bool(np.allclose(scores, by_hand, rtol=0, atol=1e-12))
assert agree, "apply_rope must give sin(m - p)"
query_only = [float(apply_rope(q[None, :], positions=np.array([m]))[0] @ k) for m, p in pairs[:2]]  # k not rotated

print(f"(m, p): {pairs}")
print(f"RoPE scores:  {np.round(scores, 4).tolist()}")
print(f"sin(m - p):   {np.round(by_hand, 4).tolist()}")
print(f"rotating q only, (2, 5) and (10, 13): {np.round(query_only, 4).tolist()}")
