import numpy as np

from attn import causal_mask, scaled_dot_product_attention

# A two-layer induction circuit built by hand. Layer 1: a previous-token head copies token t-1
# into position t. Layer 2: position t queries with its own token and finds the positions whose
# previous token matches it, then copies the token found there: [A][B] ... [A] -> [B].
rng = np.random.default_rng(0)
V, half = 50, 40
tokens = np.concatenate([rng.permutation(V)[:half]] * 2)  # a random sequence, then repeated
n = len(tokens)
one_hot = np.eye(V)[tokens]  # (n, V)
pos = np.eye(n)  # (n, n): one-hot positions
beta = 50.0  # sharpness: scores of 0 or beta
# Layer 1: query at position i matches key i - 1; the value is the token there.
q1 = beta * np.sqrt(n) * pos  # (n, n)
k1 = np.roll(pos, 1, axis=1)  # row j is one-hot j + 1
back = causal_mask(n) & ~np.eye(n, dtype=bool)  # look strictly back
prev = scaled_dot_product_attention(q1, k1, one_hot, mask=back)  # (n, V): token i - 1
# Layer 2: query with the current token, key with the previous token, value the current token.
q2 = beta * np.sqrt(V) * one_hot  # (n, V)
logits = scaled_dot_product_attention(q2, prev, one_hot, mask=back)  # (n, V)
predicted = logits.argmax(axis=1)[half:-1]
accuracy = float((predicted == tokens[half + 1 :]).mean())
first_half = float((logits.argmax(axis=1)[1 : half - 1] == tokens[2:half]).mean())
print(
    f"{half} random tokens of {V}, then the same again: next-token accuracy"
    f" {accuracy:.3f} on the repeat, {first_half:.3f} on the first pass (chance {1 / V:.3f})"
)
