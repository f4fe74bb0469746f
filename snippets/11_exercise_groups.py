import numpy as np

from attn import attend_in_groups, scaled_dot_product_attention

# h = 8 query heads, g = 2 key/value heads: h / g = 4 query heads per group.
seed = 0
h, g, n, d_k = 8, 2, 5, 4
rng = np.random.default_rng(seed)
q = rng.standard_normal((h, n, d_k))  # (h, n, d_k)
k = rng.standard_normal((g, n, d_k))  # (g, n, d_k)
v = rng.standard_normal((g, n, d_k))  # (g, n, d_v)
out = attend_in_groups(q, k, v)  # (h, n, d_v)
per_group = h // g

# Predict, then check: change key/value head 1 and see which query heads' outputs move.
k2, v2 = k.copy(), v.copy()
k2[1] += 1.0
v2[1] += 1.0
moved = [int(i) for i in np.flatnonzero(np.any(attend_in_groups(q, k2, v2) != out, axis=(1, 2)))]
reads = [i // (h // g) for i in range(h)]  # query head i reads key/value head i // (h / g)
as_the_rule_says = moved == [i for i in range(h) if reads[i] == 1]

# The same as multi-head attention whose key and value heads are copies within each group.
k_copied = np.repeat(k, h // g, axis=0)  # (h, n, d_k): heads 0,0,0,0,1,1,1,1
v_copied = np.repeat(v, h // g, axis=0)  # (h, n, d_v)
same_as_copies = bool(np.allclose(scaled_dot_product_attention(q, k_copied, v_copied), out, rtol=0, atol=1e-12))
assert as_the_rule_says, "changing key/value head 1 must move exactly the query heads that read it"
assert same_as_copies, "grouped-query attention must equal multi-head attention over copied key/value heads"
stored_ratio = k_copied.nbytes // k.nbytes  # what the copies would cost in the cache

print(f"query head i reads key/value head: {reads}")
print(f"changing key/value head 1 moves query heads: {moved}")
print(f"repeating each key/value head {h // g} times instead: {stored_ratio}x the bytes")
