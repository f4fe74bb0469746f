import numpy as np

from attn import softmax

rng = np.random.default_rng(0)
n, d_model, d_k = 6, 16, 8
d_a = d_k  # the additive scorer's hidden width, chosen equal to d_k here
x = rng.standard_normal((n, d_model))  # (n, d_model): the same tokens for both
W_q, W_k = (rng.standard_normal((d_model, d_k)) / np.sqrt(d_model) for _ in range(2))
Q, K = x @ W_q, x @ W_k  # (n, d_k) each: the same queries and keys

# Dot-product (Vaswani et al. 2017, eq. 1): one matrix product.
dot_scores = Q @ K.T / np.sqrt(d_k)  # (n, n)

# Additive (Bahdanau et al. 2015): a one-hidden-layer network scores each pair.
W_1, W_2 = (rng.standard_normal((d_k, d_a)) / np.sqrt(d_k) for _ in range(2))
w = rng.standard_normal(d_a) / np.sqrt(d_a)  # (d_a,)
hidden = np.tanh((Q @ W_1)[:, None, :] + (K @ W_2)[None, :, :])  # (n, n, d_a): one vector per pair
add_scores = hidden @ w  # (n, n)

dot_weights, add_weights = softmax(dot_scores), softmax(add_scores)  # (n, n) each
assert np.allclose(dot_weights.sum(1), 1) and np.allclose(add_weights.sum(1), 1), "a row does not sum to 1"
bound = np.abs(w).sum()  # |w . tanh(...)| <= sum |w|, at any width
assert np.abs(add_scores).max() <= bound, "an additive score exceeds sum |w|"

# FLOPs of the part that grows with n^2 (2 per multiply-add), and the bytes of what each builds.
dot_flops = 2 * n * n * d_k  # Q K^T
add_flops = n * n * d_a + 2 * n * n * d_a  # the n^2 sums, then each hidden vector . w
add_tanh = n * n * d_a  # tanh evaluations
dot_bytes, add_bytes = dot_scores.nbytes, hidden.nbytes
bytes_ratio = add_bytes // dot_bytes  # d_a: one hidden vector per pair

print(
    f"scores: dot-product {dot_scores.shape} from one matrix product;"
    f" additive {add_scores.shape} from a {hidden.shape} tanh tensor"
)
print(f"bytes built: dot-product {dot_bytes}, additive {add_bytes} ({bytes_ratio}x)")
print(f"n^2 FLOPs: dot-product {dot_flops}, additive {add_flops} plus {add_tanh} tanh")
print("weights of token 0, dot-product:", dot_weights[0].round(2))
print("weights of token 0, additive:   ", add_weights[0].round(2))
print(f"additive scores bounded by sum |w| = {bound:.2f}")
