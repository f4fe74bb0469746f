# %% norms
import numpy as np

from attn import layer_norm

seed = 0
batch, n, d_model = 2, 4, 8
rng = np.random.default_rng(seed)
x = rng.standard_normal((batch, n, d_model))  # (batch, n, d_model): two sequences of four tokens


def batch_norm(x, eps=1e-5):
    """Each feature normalised over every token of every sequence (training-mode statistics)."""
    mean = x.mean(axis=(0, 1), keepdims=True)  # (1, 1, d_model)
    var = x.var(axis=(0, 1), keepdims=True)  # (1, 1, d_model)
    return (x - mean) / np.sqrt(var + eps)


# %% measure
def moved(norm, x_other):
    """How much the output at token 0 of sequence 0 changes when the input changes elsewhere."""
    return np.abs(norm(x_other)[0, 0] - norm(x)[0, 0]).max()


def unchanged(norm, x_other):
    """True if the output at token 0 of sequence 0 is bit for bit the same."""
    return np.array_equal(norm(x_other)[0, 0], norm(x)[0, 0])


# %% leak
later = x.copy()
later[0, -1] = rng.standard_normal(d_model)  # a different last token in the same sequence
neighbour = x.copy()
neighbour[1] = rng.standard_normal((n, d_model))  # a different second sequence in the batch
from_future, from_neighbour = moved(batch_norm, later), moved(batch_norm, neighbour)
kept_future, kept_neighbour = unchanged(layer_norm, later), unchanged(layer_norm, neighbour)

print("the output at token 0 of sequence 0, when an input elsewhere changes:")
assert kept_future and kept_neighbour, "layer norm's output at token 0 must not change"
print(f"  its own last token   batch norm: up to {from_future:.2f}   layer norm: unchanged")
print(f"  the other sequence   batch norm: up to {from_neighbour:.2f}   layer norm: unchanged")

# %% one_token
one_token = x[:1, :1]  # (1, 1, d_model): generation, one sequence, one new token
print(f"a batch of one token, batch norm: {batch_norm(one_token)[0, 0]}")
print(f"                      layer norm: {layer_norm(one_token)[0, 0].round(2)}")
