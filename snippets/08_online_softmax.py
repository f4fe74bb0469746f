import numpy as np

from attn import blockwise_attention, causal_mask, plain_attention

n, d_k, d_v = 1000, 64, 64
block = 256  # keys per block; the last block is short (1000 = 3 * 256 + 232)
rng = np.random.default_rng(0)
Q, K, V = (rng.standard_normal((n, d)) for d in (d_k, d_k, d_v))  # (n, d) each

m = np.full((n, 1), -np.inf)  # (n, 1): each row's largest score so far
l = np.zeros((n, 1))  # (n, 1): sum of exp(score - m) so far
o = np.zeros((n, d_v))  # (n, d_v): sum of exp(score - m) * value so far
for start in range(0, n, block):
    S = Q @ K[start : start + block].T / np.sqrt(d_k)  # (n, b)
    m_new = np.maximum(m, S.max(axis=1, keepdims=True))  # (n, 1)
    P = np.exp(S - m_new)  # (n, b)
    rescale = np.exp(m - m_new)  # (n, 1); 0 at first
    l = rescale * l + P.sum(axis=1, keepdims=True)
    o = rescale * o + P @ V[start : start + block]
    m = m_new
out_by_hand = o / l  # (n, d_v)
roundoff = 1e-14  # float64 rounding; the exact digits depend on the BLAS kernel
reference = plain_attention(Q, K, V)  # builds the whole (n, n) matrix
by_hand_matches = bool(np.abs(out_by_hand - reference).max() < roundoff)
assert by_hand_matches
assert np.abs(blockwise_attention(Q, K, V, block_size=block, key_block_size=block) - reference).max() < roundoff
mask = causal_mask(n)
assert np.abs(blockwise_attention(Q, K, V, mask=mask) - plain_attention(Q, K, V, mask=mask)).max() < roundoff
n_blocks, largest_block = len(range(0, n, block)), (n, block)  # the last block is narrower
print("key blocks:", n_blocks, " largest score block:", largest_block, " full matrix:", (n, n))
print("by hand, blockwise_attention, and with the causal mask: within 1e-14 of plain_attention")
