import itertools

import numpy as np

from attn import init_multi_head, multi_head_attention

n, d_model = 8, 8
h = d_model  # eight heads of width d_k = 1
rng = np.random.default_rng(0)
X = rng.standard_normal((n, d_model))  # (n, d_model)
params = init_multi_head(rng, d_model)

_, weights = multi_head_attention(X, X, params, h, return_weights=True)  # (h, n, n)
favourites = weights.argmax(axis=-1)  # (h, n): each query's favourite key, per head
distinct = [len(set(row)) for row in favourites.tolist()]  # per head

# With d_k = 1 a score is q * k_j: for q > 0 it grows with k_j, for q < 0 it shrinks.
k = (X @ params["W_k"]).T  # (h, n): head i's scalar keys
q = (X @ params["W_q"]).T  # (h, n): head i's scalar queries
predicted = np.where(q > 0, k.argmax(axis=1, keepdims=True), k.argmin(axis=1, keepdims=True))  # (h, n)
as_predicted = bool((favourites == predicted).all())
assert as_predicted, "with d_k = 1 every favourite is the largest key (q > 0) or the smallest (q < 0)"

print(f"distinct favourite keys per head (of {n} queries): {distinct}")

# d_k = 2: the favourite maximises q . k_j, linear in the key, so only a corner of the keys'
# convex hull can win. A key is a corner when it lies in no triangle of three other keys.
keys2 = rng.standard_normal((n, 2))  # (n, 2): the keys of a head of width 2
angles = np.linspace(0, 2 * np.pi, 3600, endpoint=False)
queries2 = np.stack([np.cos(angles), np.sin(angles)], axis=1)  # (3600, 2): one query per direction
winners = set((queries2 @ keys2.T).argmax(axis=1).tolist())  # the keys some query favours


def in_triangle(p, a, b, c):
    """Whether point p (2,) lies in the triangle abc (edges included)."""
    sides = [(y - x)[0] * (p - x)[1] - (y - x)[1] * (p - x)[0] for x, y in ((a, b), (b, c), (c, a))]
    return min(sides) >= 0 or max(sides) <= 0


others = [[i for i in range(n) if i != j] for j in range(n)]
corners = {
    j for j in range(n) if not any(in_triangle(keys2[j], *keys2[list(t)]) for t in itertools.combinations(others[j], 3))
}
assert winners == corners, "the favourites are exactly the corners of the hull"
n_corners, n_directions = len(corners), len(angles)
print(f"d_k = 2, {n} keys: {n_corners} are corners of their hull: {sorted(corners)}")
print(f"favourite keys over {n_directions} query directions: {sorted(winners)}")
