import numpy as np

from attn import alibi_attention, alibi_slopes

# h = 4 ALiBi heads, and keys whose content scores q . k / sqrt(d_k) are all equal (here all 0).
h = 4
slopes = alibi_slopes(h)  # (h,)
ratio = 1e-3  # a key's weight relative to the query's own position
predicted = np.ceil(np.log(1 / ratio) / slopes).astype(int)  # first whole distance with e^(-m d) <= ratio

measured, geometric = [], []
for m, reach in zip(slopes, predicted, strict=True):
    n = int(reach) + 1  # positions 0 .. reach: the last query sees distances 0 .. reach
    zeros = np.zeros((1, n, 1))  # (h, n, d) for one head: every content score is 0
    _, weights = alibi_attention(zeros, zeros, zeros, np.array([m]), return_weights=True)  # (1, n, n)
    row = weights[0, -1]  # the last query, (n,)
    relative = row[::-1] / row[-1]  # weight at distance 0, 1, 2, ... over the weight at distance 0
    measured.append(int(np.argmax(relative <= ratio)))
    geometric.append(bool(np.allclose(relative[1:] / relative[:-1], np.exp(-m), rtol=1e-12, atol=0)))
as_predicted = measured == predicted.tolist()
every_head_geometric = all(geometric)
assert as_predicted, "the measured distances must be those predicted"
assert every_head_geometric, "each step back must multiply the weight by exp(-slope)"

print(f"slopes: {slopes}")
print(f"first distance at which a key gets <= {ratio} of the weight at distance 0: {measured}")
print(f"ln(1 / {ratio}) / slope, rounded up: {predicted.tolist()}")
