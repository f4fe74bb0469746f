import numpy as np

from attn import init_encoder_layer, init_layer_norm, post_norm_stack, pre_norm_stack

seed = 0
n, d_model, h, d_ff = 8, 16, 4, 64
depths = [1, 4, 16, 64]
rng = np.random.default_rng(seed)
x = rng.standard_normal((n, d_model))  # (n, d_model)
layers = [init_encoder_layer(rng, d_model, d_ff) for _ in range(depths[-1])]
final_norm = init_layer_norm(d_model)  # gamma = 1, beta = 0


def token_std(y):
    """The standard deviation of each token's vector, averaged over the tokens."""
    return y.std(axis=-1).mean()


post = [token_std(post_norm_stack(x, layers[:N], h)) for N in depths]
pre_bare = [token_std(pre_norm_stack(x, layers[:N], h, final_norm=None)) for N in depths]
pre = [token_std(pre_norm_stack(x, layers[:N], h, final_norm)) for N in depths]

print(f"{'N':>3} {'post-norm':>10} {'pre-norm, no final norm':>24} {'with it':>8}")
for N, a, b, c in zip(depths, post, pre_bare, pre, strict=True):
    print(f"{N:>3} {a:>10.2f} {b:>24.2f} {c:>8.2f}")
