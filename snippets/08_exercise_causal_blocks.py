import numpy as np

from attn import causal_mask, plain_attention

n, d_k, block = 1024, 64, 256
mask = causal_mask(n)  # (n, n): query i may see keys 0 to i
per_side = n // block  # blocks of queries, and of keys


def block_map(b):
    """(n/b, n/b): True where a block of b queries meets b keys and holds a pair the mask allows."""
    return mask.reshape(n // b, b, n // b, b).any(axis=(1, 3))


blocks = block_map(block)
n_score_blocks, needed = blocks.size, int(blocks.sum())
skipped = n_score_blocks - needed
allowed_pct = 100 * mask.mean()  # n(n + 1) / 2 of the n^2 scores
sizes = [256, 128, 64, 16]
computed_pct = [100 * block_map(b).mean() for b in sizes]  # whole blocks, masked entries included
assert needed == per_side * (per_side + 1) // 2 and int(mask.sum()) == n * (n + 1) // 2

# The loop of the section on memory, with query blocks too; it stops at the diagonal block.
rng = np.random.default_rng(0)
Q, K, V = (rng.standard_normal((n, d_k)) for _ in range(3))  # (n, d_k) each
out = np.empty((n, d_k))
for qs in range(0, n, block):
    rows = slice(qs, qs + block)
    m, l, o = np.full((block, 1), -np.inf), np.zeros((block, 1)), np.zeros((block, d_k))
    for ks in range(0, qs + block, block):  # key blocks after the diagonal are skipped
        S = Q[rows] @ K[ks : ks + block].T / np.sqrt(d_k)  # (block, block)
        S = np.where(mask[rows, ks : ks + block], S, -np.inf)
        m_new = np.maximum(m, S.max(axis=1, keepdims=True))
        P = np.exp(S - m_new)
        l = np.exp(m - m_new) * l + P.sum(axis=1, keepdims=True)
        o = np.exp(m - m_new) * o + P @ V[ks : ks + block]
        m = m_new
    out[rows] = o / l
assert np.abs(out - plain_attention(Q, K, V, mask=mask)).max() < 1e-14

print(f"n = {n}, blocks of {block}: score blocks {n_score_blocks}, with a pair to compute {needed}, skipped {skipped}")
print(f"scores the causal mask allows: {allowed_pct:.1f}%")
print("scores in the blocks computed:", ", ".join(f"{b}: {p:.1f}%" for b, p in zip(sizes, computed_pct, strict=True)))
print("skipping those blocks: within 1e-14 of plain_attention with the causal mask")
