import numpy as np

from attn import learn_bpe

# Byte-pair encoding (Sennrich et al. 2016): start from characters, merge the most frequent
# adjacent pair into a new symbol, repeat (attn.learn_bpe; ties go to the smaller pair).
text = "low lower lowest newer newest wider widest low low newest newest"
chars = sorted(set(text))
ids = np.array([chars.index(c) for c in text])  # (n,): the text as character ids
merges, tokens = learn_bpe(ids, merges=10, first_new=len(chars))
pieces = list(chars)  # the string each id stands for
for a, b in merges:
    pieces.append(pieces[a] + pieces[b])
n_chars, n_tokens = len(ids), len(tokens)
print("first merges:", [pieces[len(chars) + i] for i in range(6)])
print(f"symbols for the text: {n_chars} characters -> {n_tokens} tokens after {len(merges)} merges")
print("segmentation:", "|".join(pieces[t] for t in tokens[:12]))
