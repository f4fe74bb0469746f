import numpy as np

from attn import causal_mask, decoder_layer, init_decoder_layer, padding_mask, scaled_dot_product_attention

seed, n_src, n_tgt = 3, 5, 3  # source tokens; target tokens generated so far
d_model, d_k, d_v, h, d_ff = 8, 4, 4, 2, 32
rng = np.random.default_rng(seed)
memory = rng.standard_normal((n_src, d_model))  # (n_src, d_model): encoder out
y = rng.standard_normal((n_tgt, d_model))  # (n_tgt, d_model): decoder
# One set of projections keeps the example short (a real layer has one per sublayer).
W_q, W_k, W_v = (rng.standard_normal((d_model, d)) / np.sqrt(d_model) for d in (d_k, d_k, d_v))


def attend(queries_from, keys_values_from, mask=None):
    """Attention, Q from one sequence, K and V from another (or the same): (n_q, d_v), (n_q, n_k)."""
    Q, K, V = queries_from @ W_q, keys_values_from @ W_k, keys_values_from @ W_v
    return scaled_dot_product_attention(Q, K, V, mask=mask, return_weights=True)


_, enc_weights = attend(memory, memory)  # encoder self
_, dec_weights = attend(y, y, mask=causal_mask(n_tgt))  # decoder self
cross_out, cross_weights = attend(y, memory)  # cross
enc_zeros, dec_zeros, cross_zeros = (int((w == 0).sum()) for w in (enc_weights, dec_weights, cross_weights))

# Say this source has only n_real tokens and then padding: cross-attention needs its padding mask.
n_real = 3
_, padded_cross_weights = attend(y, memory, mask=padding_mask([n_real], n_src)[0])  # mask (1, n_src)
padded_zeros = int((padded_cross_weights == 0).sum())
padding_gets_nothing = bool(np.all(padded_cross_weights[:, n_real:] == 0))
assert padding_gets_nothing, "no target token may read the padding"

y_next = decoder_layer(y, memory, init_decoder_layer(rng, d_model, d_ff), h)  # causal by default
for name, w in (("encoder self", enc_weights), ("decoder self", dec_weights), ("cross", cross_weights)):
    print(f"weights, {name + ':':14}", w.shape, " zeros:", int((w == 0).sum()))
print("cross-attention output:", cross_out.shape)
print("cross-attention weights:\n", cross_weights.round(2))
print(f"cross, source padded after {n_real} tokens: zeros: {padded_zeros}")
print("decoder_layer:", y.shape, "and", memory.shape, "->", y_next.shape)
