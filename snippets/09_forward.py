# %% inputs
import numpy as np

import attn

config = attn.Config(vocab=12, d_model=16, h=2, d_ff=32, N=2, pad=0)
params = attn.init_transformer(np.random.default_rng(0), config)
E = params["embedding"]

# Two source sentences of 5 and 3 tokens, and targets of 4 and 2; 0 pads, 1 begins a target.
source = np.array([[5, 7, 2, 9, 4], [8, 3, 6, 0, 0]])  # (batch, m)
target = np.array([[1, 6, 6, 3, 2], [1, 9, 5, 0, 0]])  # (batch, n + 1): the begin token, then the target
target_in, target_out = target[:, :-1], target[:, 1:]  # (batch, n) each: read, and predicted
source_keys = (source != 0)[:, None, :]  # (batch, 1, m): padding is never attended to
self_mask = attn.causal_mask(4) & (target_in != 0)[:, None, :]  # (batch, n, n): no future, no padding

# %% encoder
memory = attn.embed(source, E)  # (batch, m, d_model): then what the decoder reads
print("source tokens        ", source.shape)
print("embedded + positions ", memory.shape)
for i, layer in enumerate(params["encoder"]):
    memory = attn.encoder_layer(memory, layer, config.h, source_keys)
    print(f"encoder layer {i}      ", memory.shape)

# %% decoder
y = attn.embed(target_in, E)  # (batch, n, d_model)
print("target tokens        ", target_in.shape)
print("embedded + positions ", y.shape)
for i, layer in enumerate(params["decoder"]):
    y = attn.decoder_layer(y, memory, layer, config.h, self_mask, source_keys)
    print(f"decoder layer {i}      ", y.shape)

# %% logits
logits = attn.output_logits(y, E)  # (batch, n, vocab): y E^T, the same E
print("logits               ", logits.shape)
assert np.allclose(logits, attn.forward(params, source, target_in, config)), "attn.forward must agree"
probs = attn.softmax(logits)  # (batch, n, vocab): row i, the next-token probabilities after position i
assert np.allclose(probs.sum(axis=-1), 1), "each row must be a probability distribution"
print("probabilities        ", probs.shape)
real_targets = int((target_out != 0).sum())  # padding is not predicted
loss = attn.cross_entropy(logits, target_out, config.eps_ls, config.pad)  # one number
print(f"loss, the mean over {real_targets} real target positions: {loss:.4f}")
