import numpy as np

from attn import log_softmax

# Perplexity = exp(mean negative log-likelihood per token): the size of a uniform choice with
# the same loss. A model that knows nothing over vocab tokens scores exactly vocab.
rng = np.random.default_rng(0)
vocab, n = 1000, 64
targets = rng.integers(0, vocab, n)
uniform_nll = -log_softmax(np.zeros((n, vocab)))[np.arange(n), targets].mean()
logits = rng.standard_normal((n, vocab))
logits[np.arange(n), targets] += 6.0  # a model that favours the right token
nll = -log_softmax(logits)[np.arange(n), targets].mean()
uniform_perplexity = round(float(np.exp(uniform_nll)), 9)  # exp(ln vocab), up to float rounding
assert np.isclose(uniform_perplexity, vocab), "a uniform model's perplexity is the vocabulary size"
perplexity = np.exp(nll)
print(
    f"vocab = {vocab}: uniform model loss {uniform_nll:.3f} nats, perplexity {uniform_perplexity:.0f};"
    f" a better model {nll:.3f} nats, perplexity {perplexity:.1f}"
)
