import numpy as np

from attn import log_softmax

# Perplexity = exp(mean negative log-likelihood per token): the size of a uniform choice with
# the same loss. A model that knows nothing over V tokens scores exactly V.
rng = np.random.default_rng(0)
V, n = 1000, 64
targets = rng.integers(0, V, n)
uniform_nll = -log_softmax(np.zeros((n, V)))[np.arange(n), targets].mean()
logits = rng.standard_normal((n, V))
logits[np.arange(n), targets] += 6.0  # a model that favours the right token
nll = -log_softmax(logits)[np.arange(n), targets].mean()
assert np.isclose(np.exp(uniform_nll), V)
perplexity = np.exp(nll)
print(
    f"V = {V}: uniform model loss {uniform_nll:.3f} nats, perplexity {np.exp(uniform_nll):.0f};"
    f" a better model {nll:.3f} nats, perplexity {perplexity:.1f}"
)
