import numpy as np

from attn import (causal_mask, decoder_layer, init_decoder_layer, padding_mask,
                  scaled_dot_product_attention)

seed = 3
n_src, n_tgt = 5, 3  # source tokens; target tokens generated so far
d_model, d_k, d_v = 8, 4, 4
h, d_ff = 2, 32

rng = np.random.default_rng(seed)
memory = rng.standard_normal((n_src, d_model))  # (n_src, d_model): encoder out
y = rng.standard_normal((n_tgt, d_model))       # (n_tgt, d_model): decoder
# One set of projections keeps the example short (a real layer has one set
# per sublayer); dividing by sqrt(d_model) keeps the weights spread out.
W_q, W_k, W_v = (rng.standard_normal((d_model, d)) / np.sqrt(d_model)
                 for d in (d_k, d_k, d_v))


def attend(queries_from, keys_values_from, mask=None):
    """Attention, Q from one sequence, K and V from another (or the same)."""
    Q = queries_from @ W_q       # (n_q, d_k)
    K = keys_values_from @ W_k   # (n_k, d_k)
    V = keys_values_from @ W_v   # (n_k, d_v)
    return scaled_dot_product_attention(Q, K, V, mask=mask, return_weights=True)


_, enc_weights = attend(memory, memory)                      # encoder self
_, dec_weights = attend(y, y, mask=causal_mask(n_tgt))       # decoder self
cross_out, cross_weights = attend(y, memory)                 # cross

enc_zeros = int((enc_weights == 0).sum())
dec_zeros = int((dec_weights == 0).sum())
cross_zeros = int((cross_weights == 0).sum())

# In a padded batch, say this source has only n_real tokens and then padding:
# cross-attention needs the source's padding mask, or every target token reads the padding.
n_real = 3
source_mask = padding_mask([n_real], n_src)[0]  # (1, n_src): True for real tokens, every query row
_, padded_cross_weights = attend(y, memory, mask=source_mask)
padded_zeros = int((padded_cross_weights == 0).sum())
padding_gets_nothing = bool(np.all(padded_cross_weights[:, n_real:] == 0))

# The library's whole decoder layer: masked self-attention, cross-attention,
# feed-forward. It applies the causal mask by default.
params = init_decoder_layer(rng, d_model, d_ff)
y_next = decoder_layer(y, memory, params, h)  # (n_tgt, d_model)

print("weights, encoder self:", enc_weights.shape, " zeros:", enc_zeros)
print("weights, decoder self:", dec_weights.shape, " zeros:", dec_zeros)
print("weights, cross:       ", cross_weights.shape, " zeros:", cross_zeros)
print("cross-attention output:", cross_out.shape)
print("cross-attention weights:\n", cross_weights.round(2))
print(f"cross, source padded after {n_real} tokens: zeros: {padded_zeros}",
      " all on the padding:", padding_gets_nothing)
print("decoder_layer:", y.shape, "and", memory.shape, "->", y_next.shape)
