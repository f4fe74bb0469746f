import numpy as np

from attn.cost import sequential_steps

n, d = 50, 8
rng = np.random.default_rng(0)
W_x = rng.standard_normal((d, d)) / np.sqrt(d)  # (d, d)
Q, _ = np.linalg.qr(rng.standard_normal((d, d)))  # (d, d): a random orthogonal matrix
x = rng.standard_normal((n, d))  # (n, d): the inputs
factors = sequential_steps(n, "recurrent") - 1  # updates between token 1 and the last state
radii = [0.9, 1.0, 1.1]
W_x_norm = np.linalg.norm(W_x, 2)  # the spectral norm: the most W_x can stretch a vector


def derivative_of_last_state(W_h, nonlinear):
    """d h_n / d x_1 for h_t = f(x_t W_x + h_{t-1} W_h), f = tanh or the identity: (d, d)."""
    h = np.zeros(d)
    jac = None
    for t in range(n):
        pre = x[t] @ W_x + h @ W_h  # (d,)
        h = np.tanh(pre) if nonlinear else pre
        slope = (1 - h**2) if nonlinear else np.ones(d)  # f' at this step, (d,)
        jac = W_x * slope if t == 0 else (jac @ W_h) * slope  # row vectors: d h_t / d x_1, (d, d)
    return jac


linear = [np.linalg.norm(derivative_of_last_state(r * Q, nonlinear=False), 2) for r in radii]
predicted = [r**factors * W_x_norm for r in radii]  # ||W_x (r Q)^(n-1)||_2 = r^(n-1) ||W_x||_2
linear_as_predicted = bool(np.allclose(linear, predicted, rtol=1e-9, atol=0))
assert linear_as_predicted, "without tanh the norm is r^(n-1) ||W_x||"
# The general bound ||W_x|| ||W_h||^(n-1); with W_h = r Q it is r^(n-1) ||W_x||, reached without tanh.
bound = [W_x_norm * np.linalg.norm(r * Q, 2) ** factors for r in radii]
assert np.allclose(linear, bound, rtol=1e-9, atol=0), "the linear recurrence reaches the bound"
with_tanh = [np.linalg.norm(derivative_of_last_state(r * Q, nonlinear=True), 2) for r in radii]
tanh_below_bound = all(t <= b * (1 + 1e-12) for t, b in zip(with_tanh, bound, strict=True))
assert tanh_below_bound, "the slopes, between 0 and 1, keep the norm under the bound"
# A diagonal factor of slopes between 0 and 1 can still make a product of matrices larger:
row, column = np.array([[1.0, 1.0]]), np.array([[1.0], [-1.0]])
assert (row @ column).item() == 0 and (row @ np.diag([1.0, 0.0]) @ column).item() == 1
powers = [r**factors for r in radii]

lines = [f"updates between token 1 and the last state: {factors}   ||W_x||: {W_x_norm:.3g}"]
lines += [
    f"radius {r}: r^{factors} = {p:.3g}  linear ||d h_n / d x_1|| = {a:.3g}  with tanh {b:.3g}"
    for r, p, a, b in zip(radii, powers, linear, with_tanh, strict=True)
]
print("\n".join(lines))
