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
guess = logits.argmax(axis=1)  # (n,): position i's guess at token i + 1
right_repeat = guess[half:-1] == tokens[half + 1 :]  # the repeat, after its first token
right_first = guess[1 : half - 1] == tokens[2:half]  # the first pass, after its second token
n_repeat, n_first = len(right_repeat), len(right_first)
repeat_right, first_right = int(right_repeat.sum()), int(right_first.sum())
assert repeat_right == n_repeat and first_right == 0, "every repeat right, nothing to copy on the first pass"
print(f"{half} random tokens of {V}, then the same again; next tokens predicted right:")
print(f"on the repeat {repeat_right} of {n_repeat}, on the first pass {first_right} of {n_first} (chance 1 in {V})")
