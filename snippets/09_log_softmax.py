import numpy as np

from attn import log_softmax

# log(softmax) by the textbook formula overflows: exp(1000) is inf in float64, and inf / inf is nan.
logits = np.array([1000.0, 999.0, 990.0])  # (vocab,)
with np.errstate(over="ignore", invalid="ignore"):
    naive = np.log(np.exp(logits) / np.exp(logits).sum())
print("naive log(softmax):", naive)

shifted = logits - logits.max()  # every entry <= 0, so every exp is in (0, 1]
by_hand = shifted - np.log(np.exp(shifted).sum())
print("shifted:           ", shifted)
assert np.allclose(by_hand, log_softmax(logits)), "the shifted formula by hand must equal attn.log_softmax"
assert np.isclose(np.exp(log_softmax(logits)).sum(), 1.0), "the probabilities must sum to 1"
print("log_softmax:       ", log_softmax(logits).round(4))
