import numpy as np

from attn import learn_bpe

text = "aaabdaaabac"
symbols = sorted(set(text))  # a b c d: ids 0 1 2 3
ids = np.array([symbols.index(c) for c in text])
merges, tokens = learn_bpe(ids, merges=3, first_new=len(symbols))
n_tokens = len(tokens)
names = {**dict(enumerate(symbols)), 4: "Z", 5: "Y", 6: "X"}
print("merges:", [(names[a], names[b]) for a, b in merges])
print("tokens:", "".join(names[t] for t in tokens), f"({len(text)} characters -> {len(tokens)} tokens)")
