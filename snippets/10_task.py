# %% examples
import itertools
import math

import numpy as np

n, BOS = 6, 10  # tokens 0-9 are the digits; token 10 begins every target
rng = np.random.default_rng(0)
source = rng.integers(0, 10, (3, n))  # (batch, n)
target = np.concatenate([np.full((3, 1), BOS), source[:, ::-1]], axis=1)  # (batch, n + 1)
for i in range(3):
    print("source", source[i], " decoder reads", target[i, :-1], " must predict", target[i, 1:])

# %% ceiling
# A model that cannot see the order of the source sees only which digits it holds: a multiset.
sequences = 10**n
multisets = math.comb(n + 9, 9)  # ways to choose n digits from 10 with repetition, order ignored
ceiling = multisets / sequences
one_in = round(1 / ceiling)  # the ceiling as "1 in ..."

# Brute force at n = 4: list all 10^4 sequences, and guess each one from its sorted digits alone.
small = np.array(list(itertools.product(range(10), repeat=4)))  # (10^4, 4)
distinct_multisets = len({tuple(sorted(s)) for s in small.tolist()})
guess = np.sort(small, axis=1)  # one arrangement per multiset
right = np.all(guess == small[:, ::-1], axis=1)  # (10^4,): right if the reverse is sorted
guess_right, guess_accuracy = int(right.sum()), np.mean(right)
ceiling_pct = 100 * ceiling  # the ceiling as a percentage of all sequences
assert distinct_multisets == math.comb(13, 9), "n = 4 must have C(13, 9) multisets"
assert guess_accuracy == math.comb(13, 9) / 10**4, "a multiset rule must be right once per multiset"
print(f"sequences: {sequences:,}  multisets: {multisets:,}  best order-blind exact match: {ceiling_pct:.4f}%")
print(f"n = 4: multisets {distinct_multisets}; guessing the sorted order is right for {guess_right} of {len(small):,}")
