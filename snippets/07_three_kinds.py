# %% setup
import matplotlib.pyplot as plt
import numpy as np

from attn import causal_mask, decoder_layer, init_decoder_layer, padding_mask, scaled_dot_product_attention

seed, n_src, n_tgt = 3, 5, 3  # source tokens; target tokens generated so far
d_model, d_k, d_v, h, d_ff = 8, 4, 4, 2, 32
rng = np.random.default_rng(seed)
memory = rng.standard_normal((n_src, d_model))  # (n_src, d_model): encoder out
y = rng.standard_normal((n_tgt, d_model))  # (n_tgt, d_model): decoder
# One set of projections keeps the example short (a real layer has one per sublayer).
W_q, W_k, W_v = (rng.standard_normal((d_model, d)) / np.sqrt(d_model) for d in (d_k, d_k, d_v))


# %% attend
def attend(queries_from, keys_values_from, mask=None):
    """Q from one sequence, K and V from another (or the same).

    -> out (n_q, d_v), weights (n_q, n_k).
    """
    Q = queries_from @ W_q
    K, V = keys_values_from @ W_k, keys_values_from @ W_v
    return scaled_dot_product_attention(Q, K, V, mask=mask, return_weights=True)


# %% encoder
# The source attends to itself.
_, enc_weights = attend(memory, memory)
enc_zeros = int((enc_weights == 0).sum())
print("encoder self-attention weights:", enc_weights.shape, " zeros:", enc_zeros)

# %% decoder
# The target so far, causal.
_, dec_weights = attend(y, y, mask=causal_mask(n_tgt))
dec_zeros = int((dec_weights == 0).sum())
print("decoder self-attention weights:", dec_weights.shape, " zeros:", dec_zeros)

# %% cross
# Q from the target, K and V from the source.
cross_out, cross_weights = attend(y, memory)
cross_zeros = int((cross_weights == 0).sum())
print("cross-attention weights:", cross_weights.shape, " zeros:", cross_zeros)
print("cross-attention output: ", cross_out.shape)
print(cross_weights.round(2))

# %% padded
# Say this source has only 3 real tokens, then padding.
n_real = 3
# True for real tokens.
source_mask = padding_mask([n_real], n_src)[0]  # (1, n_src)
_, padded_cross_weights = attend(y, memory, mask=source_mask)
padded_zeros = int((padded_cross_weights == 0).sum())
print(f"source padded after {n_real} tokens: zeros: {padded_zeros}")

# %% figure
# Two panels stacked, 4 inches wide: on a 390 px phone every label reads at 10 pt or more.
fig, axes = plt.subplots(2, 1, figsize=(4.0, 5.6), layout="constrained")
fig.suptitle("Cross-attention weights, random projections", fontsize=12.5)
panels = [(cross_weights, "no mask", n_src), (padded_cross_weights, f"source padded after {n_real} tokens", n_real)]
for ax, (weights, title, real) in zip(axes, panels, strict=True):
    ax.imshow(weights, cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(weights):
        if j >= real:  # grey out what the padding mask removed
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, hatch="//", fc="#e6e6e6", ec="#b0b0b0"))
            ax.text(j, i, "0", ha="center", va="center", fontsize=12, color="#555555")
        else:
            colour = "white" if value > 0.6 else "black"
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=12, color=colour)
    ax.set_title(title, fontsize=12)
    ax.set_xticks(range(n_src), range(n_src), fontsize=12)
    ax.set_yticks(range(n_tgt), range(n_tgt), fontsize=12)
    ax.set_xlabel("source token (key, value)", fontsize=12)
    ax.set_ylabel("target token\n(query)", fontsize=12)
    ax.tick_params(length=0)
fig.savefig("cross_attention.svg")

# %% layer
layer_params = init_decoder_layer(rng, d_model, d_ff)
# Causal by default.
y_next = decoder_layer(y, memory, layer_params, h)
print("decoder_layer:", y.shape, "and", memory.shape, "->", y_next.shape)

# %% checks
assert np.allclose(cross_weights.sum(axis=1), 1), "each target token's weights sum to 1"
padding_gets_nothing = bool(np.all(padded_cross_weights[:, n_real:] == 0))
assert padding_gets_nothing, "no target token may read the padding"
assert np.allclose(padded_cross_weights.sum(axis=1), 1), "the real source tokens share the whole weight"
