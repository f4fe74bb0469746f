import numpy as np

rng = np.random.default_rng(0)
x = rng.standard_normal((3, 4))  # (n, d_in)
W = rng.standard_normal((4, 2))  # (d_in, d_out)
dy = rng.standard_normal((3, 2))  # (n, d_out): the gradient that reached y = x W


def loss(x, W):
    return np.sum(dy * (x @ W))  # a loss whose gradient at y is dy


dx = dy @ W.T  # (n, d_in): the rule for x
dW = x.T @ dy  # (d_in, d_out): the rule for W

# Nudge one weight by eps and watch the loss: the slope is that entry of dW.
eps = 1e-6


def nudged(a, index):
    b = a.copy()
    b[index] += eps
    return b


slope = (loss(x, nudged(W, (1, 0))) - loss(x, W)) / eps
print(f"dW[1, 0] by the rule: {dW[1, 0]:.6f}   by nudging W[1, 0]: {slope:.6f}")
assert all(abs((loss(x, nudged(W, i)) - loss(x, W)) / eps - dW[i]) < 1e-6 for i in np.ndindex(W.shape)), "dW = x^T dy"
assert all(abs((loss(nudged(x, i), W) - loss(x, W)) / eps - dx[i]) < 1e-6 for i in np.ndindex(x.shape)), "dx = dy W^T"
