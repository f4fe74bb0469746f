import numpy as np

from attn import plain_attention
from attn.kernels import LOOSE_BOUND

seed = 0
n, d_k, d_v = 1000, 64, 64
block = 256  # keys per block, as in the loop above

rng = np.random.default_rng(seed)
Q = rng.standard_normal((n, d_k))  # (n, d_k)
K = rng.standard_normal((n, d_k))  # (n, d_k)
V = rng.standard_normal((n, d_v))  # (n, d_v)

Q_scaled = Q / np.sqrt(d_k)  # (n, d_k)
q_norm = np.linalg.norm(Q_scaled, axis=1, keepdims=True)  # (n, 1)

# The same loop, but m is an upper bound of each row's scores, not their maximum.
m = np.full((n, 1), -np.inf)  # (n, 1)
l = np.zeros((n, 1))  # (n, 1)
o = np.zeros((n, d_v))  # (n, d_v)
R = 0.0  # the longest key seen so far
rises = []  # the key blocks at which R grew
for j, start in enumerate(range(0, n, block)):
    K_j = K[start : start + block]  # (b, d_k)
    V_j = V[start : start + block]  # (b, d_v)
    R_j = np.linalg.norm(K_j, axis=1).max()
    if R_j > R:
        R = R_j
        rises.append(j)
    m_new = q_norm * R  # (n, 1): Cauchy-Schwarz, no max taken
    P = np.exp(Q_scaled @ K_j.T - m_new)  # (n, b), every entry <= 1
    rescale = np.exp(m - m_new)  # (n, 1)
    l = rescale * l + P.sum(axis=1, keepdims=True)
    o = rescale * o + P @ V_j
    m = m_new
out_bounded = o / l  # (n, d_v)

true_max = (Q_scaled @ K.T).max(axis=1, keepdims=True)  # (n, 1), only to compare
gap = m - true_max  # (n, 1)
bound_holds = bool((gap >= 0).all())
assert bound_holds, "the bound must be at least every score of its row"
gap_mean, gap_largest = gap.mean(), gap.max()
smallest_row_sum = l.min()
diff = np.abs(out_bounded - plain_attention(Q, K, V)).max()
tiny64 = np.finfo(np.float64).tiny  # below this an exponential loses precision
tiny32 = np.finfo(np.float32).tiny
gap32 = -np.log(np.finfo(np.float32).eps)  # the widest gap a float32 row sum of eps allows

print("bound rose at key blocks:", rises)
print("bound >= true maximum in every row:", bound_holds)
print(f"bound - true maximum: mean {gap_mean:.2f}, largest {gap_largest:.2f}")
print(f"smallest row sum l: {smallest_row_sum:.1e}  (the library's floor: {LOOSE_BOUND:.0e})")
print("max |bounded loop - plain| < 1e-14:", bool(diff < 1e-14))
print(f"smallest normal number, float64: {tiny64:.1e}  float32: {tiny32:.1e}")
print(f"float32 accepts a gap of up to {gap32:.1f}")
