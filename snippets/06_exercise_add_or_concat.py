import numpy as np

from attn import count_parameters, positional_encoding

n, d_model, d_k = 4, 8, 4
rng = np.random.default_rng(0)
X = rng.standard_normal((n, d_model))  # (n, d_model): token embeddings
PE = positional_encoding(n, d_model)  # (n, d_model)
W = rng.standard_normal((d_model, d_k))  # a query projection for the sum
W_x = rng.standard_normal((d_model, d_k))  # the two halves of a projection for the concatenation
W_p = rng.standard_normal((d_model, d_k))

# Concatenate: [X, PE] is (n, 2 d_model), its projection (2 d_model, d_k) is two blocks stacked.
concat_q = np.concatenate([X, PE], axis=1) @ np.concatenate([W_x, W_p], axis=0)  # (n, d_k)
split_q = X @ W_x + PE @ W_p  # (n, d_k): each half projected on its own, then added
concat_is_sum_of_projections = bool(np.allclose(concat_q, split_q, rtol=0, atol=1e-12))
assert concat_is_sum_of_projections, "[X, PE] [W_x; W_p] = X W_x + PE W_p"

# Adding first is the special case W_x = W_p = W.
added_q = (X + PE) @ W
tied_concat_q = np.concatenate([X, PE], axis=1) @ np.concatenate([W, W], axis=0)
adding_is_tied_concat = bool(np.allclose(added_q, tied_concat_q, rtol=0, atol=1e-12))
assert adding_is_tied_concat, "(X + PE) W = [X, PE] [W; W]"

weights_added = count_parameters(W)
weights_concat = count_parameters([W_x, W_p])

print(f"weights per projection: add {weights_added}, concatenate {weights_concat}")
