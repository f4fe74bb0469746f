import numpy as np

from attn import layer_norm

seed, n, d_model, N = 0, 4, 8, 6  # N layers of two sublayers each
rng = np.random.default_rng(seed)
x = 3 * rng.standard_normal((n, d_model))  # (n, d_model): an input that is not normalised


def silent(z):
    """A sublayer switched off: its output is all zeros, so only the residual path is left."""
    return np.zeros_like(z)


def post_norm_stack(x, sublayer):
    """The paper's layers: x <- LayerNorm(x + Sublayer(x)), twice per layer."""
    for _ in range(2 * N):
        x = layer_norm(x + sublayer(x))  # (n, d_model)
    return x


def pre_norm_stack(x, sublayer):
    """Pre-norm layers: x <- x + Sublayer(LayerNorm(x)). (Models add one LayerNorm after the stack.)"""
    for _ in range(2 * N):
        x = x + sublayer(layer_norm(x))  # (n, d_model): the stream itself is never normalised
    return x


post = post_norm_stack(x, silent)
pre_stream = pre_norm_stack(x, silent)

post_returns_input = bool(np.allclose(post, x))
post_returns_normalised_input = bool(np.allclose(post, layer_norm(x), atol=1e-4))  # up to eps
pre_stream_is_input = bool(np.array_equal(pre_stream, x))
assert pre_stream_is_input, "pre-norm: the stream after the last layer is the input, every bit"
assert post_returns_normalised_input and not post_returns_input, "post-norm returns LayerNorm(input)"
print(f"{N} layers with silent sublayers:")
input_stds = x.std(axis=-1)  # (n,)
print("input row stds:", input_stds.round(2))
print("post-norm output row stds:", post.std(axis=-1).round(2))
