# %% blocks
import numpy as np

# One query's scores over four keys, and the keys' values (d_v = 1, to do by hand).
s = np.array([1.0, 3.0, 2.0, 0.0])
v = np.array([10.0, 20.0, 30.0, 40.0])


def partial(s, v):
    """What one block of keys reports: its maximum m, sum l = sum e^(s - m), output o = sum e^(s - m) v."""
    m = s.max()
    e = np.exp(s - m)
    return m, e.sum(), e @ v


m1, l1, o1 = partial(s[:2], v[:2])  # keys 0, 1
m2, l2, o2 = partial(s[2:], v[2:])  # keys 2, 3
m = max(m1, m2)
l = np.exp(m1 - m) * l1 + np.exp(m2 - m) * l2  # both sums measured against the common maximum
o = np.exp(m1 - m) * o1 + np.exp(m2 - m) * o2
merged = o / l

print(f"block 1: m = {m1}, l = {l1:.4f}, o = {o1:.3f}")
print(f"block 2: m = {m2}, l = {l2:.4f}, o = {o2:.3f}")
print(f"merged:  m = {m}, l = {l:.4f}, o = {o:.3f}, o / l = {merged:.4f}")

# %% check
w = np.exp(s - s.max()) / np.exp(s - s.max()).sum()  # the full softmax, for comparison
full = w @ v
same = bool(abs(merged - full) <= 1e-12)


def merge(a, b):
    """Two blocks' (m, l, o) -> the (m, l, o) of the keys of both."""
    (ma, la, oa), (mb, lb, ob) = a, b
    m = max(ma, mb)
    return m, np.exp(ma - m) * la + np.exp(mb - m) * lb, np.exp(ma - m) * oa + np.exp(mb - m) * ob


state = partial(s[:1], v[:1])
for j in range(1, len(s)):  # the online softmax: one key at a time, merged left to right
    state = merge(state, partial(s[j : j + 1], v[j : j + 1]))
one_at_a_time = bool(abs(state[2] / state[1] - full) <= 1e-12)
assert same and one_at_a_time, "the merged state must give the full softmax's output"

print(f"softmax(s) @ v = {full:.4f}")
