import numpy as np

vocab, periods = 16, (3, 6)  # the task above: 16 tokens, blocks of 3 to 6 distinct tokens
ks = np.arange(periods[0], periods[1] + 1)  # the block lengths, equally likely

# After j distinct tokens and no repeat yet, the block length is one of the k >= j, equally likely.
# The row repeats now if k == j; otherwise the next token is one of the vocab - j tokens not yet seen.
losses, weights = [], []
for j in range(1, periods[1]):  # positions where the next token can be fresh
    possible = ks[ks >= j]
    p_fresh = (possible > j).mean()
    losses.append(-np.log(p_fresh / (vocab - j)))  # nats: the best any model does on a fresh token here
    weights.append((ks > j).mean())  # the share of rows whose token at j is fresh
ideal_first_pass = float(np.average(losses, weights=weights))
ln_vocab = float(np.log(vocab))
print(f"best possible first-pass loss: {ideal_first_pass:.4f} nats  uniform guess: {ln_vocab:.4f}")
