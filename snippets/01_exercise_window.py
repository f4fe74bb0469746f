import math

import numpy as np

from attn import scaled_dot_product_attention

n, r = 64, 4  # 64 tokens; each attends to the tokens at most r positions away
rng = np.random.default_rng(0)
x = rng.standard_normal((n, 8))  # (n, d): Q = K = V = x, no projections needed here
nudged = x.copy()
nudged[0] += 1.0  # change token 0 only

positions = np.arange(n)
window = np.abs(positions[:, None] - positions[None, :]) <= r  # (n, n), True = may attend


def last_token_after(x, layers, mask):
    """The last token's output after `layers` attention layers: (d,)."""
    for _ in range(layers):
        x = scaled_dot_product_attention(x, x, x, mask=mask)  # (n, d)
    return x[-1]


def layers_until_last_sees_first(mask):
    """The fewest layers after which token 0 moves the last token's output."""
    layers = 1
    while np.array_equal(last_token_after(x, layers, mask), last_token_after(nudged, layers, mask)):
        layers += 1
    return layers


windowed_layers = layers_until_last_sees_first(window)
full_layers = layers_until_last_sees_first(None)
formula = math.ceil((n - 1) / r)  # each layer carries a signal at most r positions further
equal_below = all(
    np.array_equal(last_token_after(x, layers, window), last_token_after(nudged, layers, window))
    for layers in range(1, windowed_layers)
)
assert equal_below, "at every smaller depth token 0 leaves the last output exactly as it was"
window_scores, full_scores = int(window.sum()), n * n  # scores one layer computes

print(f"n = {n}, window r = {r}")
print(f"layers until token 0 reaches token {n - 1}: windowed {windowed_layers}, full {full_layers}")
print(f"ceil((n - 1) / r) = {formula}")
print(f"scores per layer: windowed {window_scores}, full {full_scores}")
