# %% model
import numpy as np

from attn import Config, forward_decoder_only, init_decoder_only

words = "<s> the cat sat on mat a dog ran to it .".split()
seed = 11
vocab, d_model, h, d_ff, N = len(words), 16, 4, 64, 2
# No token is padding.
config = Config(vocab, d_model, h, d_ff, N, pad=None)
params = init_decoder_only(np.random.default_rng(seed), config)  # random, untrained

# %% pass
# What the model should produce.
sentence = "the cat sat on the mat ."
target = [words.index(w) for w in sentence.split()]
# Shifted right: a start token in, the last token out.
inputs = [words.index("<s>")] + target[:-1]
n = len(inputs)
# (n, vocab): one causal pass, every position at once.
logits = forward_decoder_only(params, inputs, config)

print("position  input  ->  target   (model's guess)")
for i in range(n):
    word_in, word_out = words[inputs[i]], words[target[i]]
    guess = words[logits[i].argmax()]
    print(f"{i:>8}  {word_in:>5}  ->  {word_out:<6}   ({guess})")
print(f"logits: {logits.shape}")

# %% loss
# Cross-entropy of the true next token at every position,
# averaged: the training loss.
# (n, vocab), for a stable log-softmax:
shifted = logits - logits.max(axis=-1, keepdims=True)
log_sum = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
log_probs = shifted - log_sum  # (n, vocab)
loss = -log_probs[np.arange(n), target].mean()
# The loss of a model that spreads its bets evenly.
uniform_loss = np.log(vocab)
print(f"loss {loss:.2f}  (uniform guess: {uniform_loss:.2f})")

# %% check
# Row i saw only inputs 0..i: the same row recomputed from that prefix alone.
row_gap = max(np.abs(forward_decoder_only(params, inputs[: i + 1], config)[-1] - logits[i]).max() for i in range(n))
print(f"row i of one pass == a pass over the first i + 1 inputs: {row_gap < 1e-12}")
