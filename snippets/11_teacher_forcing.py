# %% model
import numpy as np

from attn import Config, forward_decoder_only, init_decoder_only

words = ["<s>", "the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "it", "."]
seed = 11
vocab, d_model, h, d_ff, N = len(words), 16, 4, 64, 2
config = Config(vocab, d_model, h, d_ff, N, pad=None)  # no token is padding
params = init_decoder_only(np.random.default_rng(seed), config)  # random, untrained

# %% pass
target = [words.index(w) for w in "the cat sat on the mat .".split()]  # what the model should produce
inputs = [words.index("<s>")] + target[:-1]  # shifted right: a start token in, the last token out
n = len(inputs)
logits = forward_decoder_only(params, inputs, config)  # (n, vocab): one causal pass, every position at once

print("position  input  ->  target   (model's guess)")
for i in range(n):
    print(f"{i:>8}  {words[inputs[i]]:>5}  ->  {words[target[i]]:<6}   ({words[logits[i].argmax()]})")
print(f"logits: {logits.shape}")

# %% loss
# Cross-entropy of the true next token at every position, averaged: the training loss.
shifted = logits - logits.max(axis=-1, keepdims=True)  # (n, vocab), for a stable log-softmax
log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))  # (n, vocab)
loss = -log_probs[np.arange(n), target].mean()
uniform_loss = np.log(vocab)  # the loss of a model that spreads its bets evenly
print(f"loss {loss:.2f}  (uniform guess: {uniform_loss:.2f})")

# %% check
# Row i saw only inputs 0..i: the same row recomputed from that prefix alone.
row_gap = max(np.abs(forward_decoder_only(params, inputs[: i + 1], config)[-1] - logits[i]).max() for i in range(n))
print(f"row i of one pass == a pass over the first i + 1 inputs: {row_gap < 1e-12}")
