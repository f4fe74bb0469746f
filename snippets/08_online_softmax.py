import numpy as np

from attn import blockwise_attention, causal_mask, plain_attention

seed = 0
n, d_k, d_v = 1000, 64, 64
block = 256  # keys per block; the last block is short (1000 = 3 * 256 + 232)

rng = np.random.default_rng(seed)
Q = rng.standard_normal((n, d_k))  # (n, d_k)
K = rng.standard_normal((n, d_k))  # (n, d_k)
V = rng.standard_normal((n, d_v))  # (n, d_v)

# One pass over the keys, a block at a time, with three running quantities:
m = np.full((n, 1), -np.inf)  # (n, 1): each row's largest score so far
l = np.zeros((n, 1))          # (n, 1): sum of exp(score - m) so far
o = np.zeros((n, d_v))        # (n, d_v): sum of exp(score - m) * value so far
for start in range(0, n, block):
    K_j = K[start:start + block]                         # (b, d_k)
    V_j = V[start:start + block]                         # (b, d_v)
    S = Q @ K_j.T / np.sqrt(d_k)                         # (n, b)
    m_new = np.maximum(m, S.max(axis=1, keepdims=True))  # (n, 1)
    P = np.exp(S - m_new)                                # (n, b)
    rescale = np.exp(m - m_new)                          # (n, 1); 0 at first
    l = rescale * l + P.sum(axis=1, keepdims=True)
    o = rescale * o + P @ V_j
    m = m_new
out_by_hand = o / l  # (n, d_v)

reference = plain_attention(Q, K, V)  # builds the whole (n, n) matrix
out_library = blockwise_attention(Q, K, V, block_size=block,
                                  key_block_size=block)
mask = causal_mask(n)
masked_library = blockwise_attention(Q, K, V, mask=mask)
masked_reference = plain_attention(Q, K, V, mask=mask)

diff_by_hand = np.abs(out_by_hand - reference).max()
diff_library = np.abs(out_library - reference).max()
masked_diff = np.abs(masked_library - masked_reference).max()
max_abs_diff = max(diff_by_hand, diff_library, masked_diff)
n_blocks = len(range(0, n, block))
largest_block = (n, block)  # the score block; the last one is narrower

print("key blocks:", n_blocks, " largest score block:", largest_block)
print("plain attention's score matrix:", (n, n))
# Differences at rounding level depend on the BLAS kernel, so print their size class only.
roundoff = 1e-14
by_hand_matches = bool(diff_by_hand < roundoff)
print("max |by hand - plain| < 1e-14:      ", by_hand_matches)
print("max |blockwise - plain| < 1e-14:    ", bool(diff_library < roundoff))
print("same, with the causal mask < 1e-14: ", bool(masked_diff < roundoff))
print("max_abs_diff <= 1e-12:", bool(max_abs_diff <= 1e-12))
