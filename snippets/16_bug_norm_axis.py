import numpy as np


def layer_norm(x, eps=1e-5):
    """Normalise each position: x (n, d_model) -> (n, d_model)."""
    mean = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


rng = np.random.default_rng(0)
n, d_model = 8, 16
x = rng.standard_normal((n, d_model))
changed = x.copy()
changed[-1] = rng.standard_normal(d_model)  # change only the last token
moved = np.abs(layer_norm(changed)[0] - layer_norm(x)[0]).max()
alone = np.abs(layer_norm(x[:1])).max()  # a sequence of one token
print(f"changing the last token moves position 0 by up to {moved:.3f}; a one-token sequence normalises to {alone:.1f}")
