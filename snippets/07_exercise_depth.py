import numpy as np

from attn import causal_mask, encoder_layer, init_encoder_layer

# A stack of N decoder-only layers (encoder layers given the causal mask), random weights.
seed = 0
n, d_model, h, d_ff, N = 5, 8, 2, 32, 3
rng = np.random.default_rng(seed)
layers = [init_encoder_layer(rng, d_model, d_ff) for _ in range(N)]
x = rng.standard_normal((n, d_model))  # (n, d_model)


def stack(x, mask, depth):
    for params in layers[:depth]:
        x = encoder_layer(x, params, h, mask=mask)  # (n, d_model)
    return x


def depends(mask, depth):
    """D[i, j] = 1 when changing input j changes output i at all (bit for bit)."""
    base = stack(x, mask, depth)
    D = np.zeros((n, n), dtype=int)  # (n, n)
    for j in range(n):
        nudged = x.copy()
        nudged[j] += 1.0
        D[:, j] = np.any(stack(nudged, mask, depth) != base, axis=-1)
    return D


lower = np.tril(np.ones((n, n), dtype=int))  # (n, n): 1 where j <= i
D_causal = depends(causal_mask(n), N)
depths = list(range(1, N + 1))
lower_at_each_depth = [bool(np.array_equal(depends(causal_mask(n), depth), lower)) for depth in depths]
lower_at_every_depth = all(lower_at_each_depth)
assert lower_at_every_depth, "a causal stack must never read the future"
n_dependencies = int(D_causal.sum())  # n (n + 1) / 2
n_full_one_layer = int(depends(None, 1).sum())
n_pairs = n * n

print(f"{N} causal layers, output i (row) changes with input j (column):\n{D_causal}")
print(f"pairs (i, j) with output i depending on input j: {n_dependencies} of {n_pairs}")
print(f"one layer without the mask: {n_full_one_layer} of {n_pairs} pairs")
