import numpy as np

from attn import Config, count_parameters, init_transformer, loss_and_gradients

N = 2
config = Config(vocab=8, d_model=8, h=2, d_ff=16, N=N, p_drop=0.1, eps_ls=0.1, pad=0)
params = init_transformer(np.random.default_rng(0), config)
source = np.array([[3, 4, 5, 6], [7, 2, 0, 0]])  # (batch, m), padded with 0
target = np.array([[1, 6, 5, 4, 3], [1, 2, 7, 0, 0]])  # (batch, n + 1), starts with 1


def loss_at(params):
    """The loss with the same dropout masks every time: a fresh Generator with the same seed."""
    return loss_and_gradients(params, source, target, config, np.random.default_rng(1))[0]


def combine(tree, other, scale):
    """tree + scale * other, leaf by leaf (nested dicts and lists of arrays of one structure)."""
    if isinstance(tree, dict):
        return {key: combine(tree[key], other[key], scale) for key in tree}
    if isinstance(tree, list):
        return [combine(a, b, scale) for a, b in zip(tree, other, strict=True)]
    return tree + scale * other


def dot(tree, other):
    """The sum of elementwise products over every leaf."""
    if isinstance(tree, dict):
        return sum(dot(tree[key], other[key]) for key in tree)
    if isinstance(tree, list):
        return sum(dot(a, b) for a, b in zip(tree, other, strict=True))
    return float(np.vdot(tree, other))


def random_like(tree, rng):
    """Standard normal numbers in the shape of every leaf."""
    if isinstance(tree, dict):
        return {key: random_like(value, rng) for key, value in tree.items()}
    if isinstance(tree, list):
        return [random_like(value, rng) for value in tree]
    return rng.standard_normal(tree.shape)


loss, grads = loss_and_gradients(params, source, target, config, np.random.default_rng(1))
print(f"loss {loss:.6f}; parameters {count_parameters(params):,}; gradient entries {count_parameters(grads):,}")

# Move every parameter at once along a random direction u: the slope must be <gradient, u>.
rng, eps = np.random.default_rng(2), 1e-5
errors = []
for trial in range(3):
    direction = random_like(params, rng)
    above = loss_at(combine(params, direction, eps))
    below = loss_at(combine(params, direction, -eps))
    numeric = (above - below) / (2 * eps)
    predicted = dot(grads, direction)
    errors.append(abs(numeric - predicted) / abs(predicted))
    print(f"direction {trial}: central difference {numeric:.6f}  gradient {predicted:.6f}")
assert max(errors) < 1e-6, "the gradient must predict every central difference to a relative 1e-6"
