import numpy as np

from attn import log_softmax

# A causal language model's training pair. The "model" copies its own input token: it can,
# since position i attends to itself.
rng = np.random.default_rng(0)
V, n = 100, 1000
tokens = rng.integers(0, V, n + 1)
inputs = tokens[:-1]
logits = 10.0 * np.eye(V)[inputs]  # (n, V): predicts the token it sees
targets = inputs
loss = -log_softmax(logits)[np.arange(n), targets].mean()
shifted_loss = -log_softmax(logits)[np.arange(n), tokens[1:]].mean()
print(
    f"copying the input: loss {loss:.4f} on these targets, {shifted_loss:.2f} on the next tokens"
    f" (uniform: {np.log(V):.2f})"
)
