from collections import Counter

# Byte-pair encoding (Sennrich et al. 2016): start from characters, merge the most frequent
# adjacent pair into a new symbol, repeat. A word ends with "_" so merges stay inside words.
text = "low lower lowest newer newest wider widest low low newest newest"
words = Counter(text.split())
vocab = {tuple(w) + ("_",): c for w, c in words.items()}  # word as symbols -> count


def merge_once(vocab):
    """Merge the most frequent adjacent pair everywhere; -> (new vocab, the pair)."""
    pairs = Counter()
    for symbols, count in vocab.items():
        for pair in zip(symbols, symbols[1:], strict=False):
            pairs[pair] += count
    best = max(pairs, key=lambda p: (pairs[p], p))  # ties broken by the pair itself
    merged = {}
    for symbols, count in vocab.items():
        out, i = [], 0
        while i < len(symbols):
            if symbols[i:i + 2] == best:
                out.append(symbols[i] + symbols[i + 1])
                i += 2
            else:
                out.append(symbols[i])
                i += 1
        merged[tuple(out)] = count
    return merged, best


def length(vocab):
    return sum(len(s) * c for s, c in vocab.items())


n_chars = length(vocab)
merges = []
for _ in range(10):
    vocab, pair = merge_once(vocab)
    merges.append("".join(pair))
n_tokens = length(vocab)
print("first merges:", merges[:6])
print(f"symbols for the text: {n_chars} characters -> {n_tokens} tokens after {len(merges)} merges")
print("segmentations:", [" ".join(s) for s in vocab][:5])
