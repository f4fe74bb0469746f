import numpy as np

# The gradient reaching the input of a stack of N layers is a product of N Jacobians. Each layer
# here is f(x) = tanh(x W), W with entries of variance 1/d (a standard initialisation).
rng = np.random.default_rng(0)
d, N = 256, 48
Ws = [rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(N)]
x = rng.standard_normal(d)


def input_gradient_norm(residual, scale=1.0):
    """||d sum(out) / d x|| by the chain rule through the N layers (residual: x + scale f(x))."""
    h, jacobians = x, []
    for W in Ws:
        a = h @ W
        J = W * (1 - np.tanh(a) ** 2)  # (d, d): d tanh(h W) / d h
        jacobians.append(np.eye(d) + scale * J if residual else J)
        h = h + scale * np.tanh(a) if residual else np.tanh(a)
    g = np.ones(d)
    for J in reversed(jacobians):
        g = J @ g
    return np.linalg.norm(g)


# Unscaled, each factor I + J stretches the gradient a little and the stretches compound over N
# layers; scaling each branch by 1 / sqrt(N) keeps every factor near I.
top = np.linalg.norm(np.ones(d))  # the gradient at the output
plain_ratio = input_gradient_norm(False) / top
unscaled_ratio = input_gradient_norm(True) / top  # x + f(x)
res_ratio = input_gradient_norm(True, scale=1 / np.sqrt(N)) / top  # x + f(x) / sqrt(N)
assert plain_ratio < 0.2 and unscaled_ratio > 10 and 0.5 < res_ratio < 2
print(f"{N} layers, d = {d}: gradient norm at the input / at the output")
print(f"plain {plain_ratio:.2f}; residual {unscaled_ratio:.1f}; residual, branches scaled by 1/sqrt(N) {res_ratio:.2f}")
