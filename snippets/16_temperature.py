import numpy as np

from attn import softmax

rng = np.random.default_rng(0)
n_keys, d_k = 10, 64
q = rng.standard_normal(d_k)  # (d_k,): one query
K = rng.standard_normal((n_keys, d_k))  # (n_keys, d_k)
raw = K @ q  # (n_keys,): unscaled scores
scaled = raw / np.sqrt(d_k)  # what attention feeds the softmax

temperatures = [0.1, 0.5, 1.0, 2.0, 10.0]
weights = np.array([softmax(scaled / T) for T in temperatures])  # (5, n_keys)
top = weights.max(axis=1)  # (5,)
entropy = -(weights * np.log(weights)).sum(axis=1)  # (5,) nats
uniform_entropy = np.log(n_keys)
same_order = all(np.array_equal(np.argsort(w), np.argsort(scaled)) for w in weights)
assert same_order, "a temperature changed the order of the weights"

print(f"one query against {n_keys} keys, d_k = {d_k}: softmax(scores / (sqrt(d_k) T))")
print(f"{'T':>5} {'top weight':>10} {'entropy':>8}")
for T, t, e in zip(temperatures, top, entropy, strict=True):
    print(f"{T:>5} {t:>10.3f} {e:>8.3f}")
print(f"uniform entropy ln {n_keys} = {uniform_entropy:.3f}")
