import numpy as np

from attn import (Config, causal_mask, cross_entropy, decoder_layer, embed, encoder_layer, forward,
                  init_transformer, log_softmax, output_logits)

vocab, d_model, h, d_ff, N = 12, 16, 2, 32, 2
config = Config(vocab=vocab, d_model=d_model, h=h, d_ff=d_ff, N=N, pad=0)
rng = np.random.default_rng(0)
params = init_transformer(rng, config)
E = params["embedding"]

# Two source sentences of 5 and 3 tokens, and targets of 4 and 2; 0 pads, 1 begins a target.
source = np.array([[5, 7, 2, 9, 4],
                   [8, 3, 6, 0, 0]])      # (batch, m)
target = np.array([[1, 6, 6, 3, 2],
                   [1, 9, 5, 0, 0]])      # (batch, n + 1): the begin token, then the target
target_in, target_out = target[:, :-1], target[:, 1:]  # (batch, n) each: read, and predicted
source_lengths = (source != 0).sum(axis=1)  # (batch,): real tokens per sentence
source_keys = (source != 0)[:, None, :]      # (batch, 1, m): padding is never attended to
target_keys = (target_in != 0)[:, None, :]   # (batch, 1, n)
self_mask = causal_mask(4) & target_keys     # (batch, n, n): no future, no padding

x = embed(source, E)                                   # (batch, m, d_model)
print("source tokens        ", source.shape)
print("embedded + positions ", x.shape)
for i, layer in enumerate(params["encoder"]):
    x = encoder_layer(x, layer, config.h, source_keys)
    print(f"encoder layer {i}      ", x.shape)
memory = x                                             # (batch, m, d_model): what the decoder reads

y = embed(target_in, E)                                # (batch, n, d_model)
print("target tokens        ", target_in.shape)
print("embedded + positions ", y.shape)
for i, layer in enumerate(params["decoder"]):
    y = decoder_layer(y, memory, layer, config.h, self_mask, source_keys)
    print(f"decoder layer {i}      ", y.shape)

logits = output_logits(y, E)                           # (batch, n, vocab): y E^T, the same E
log_p = log_softmax(logits)                            # (batch, n, vocab)
print("logits               ", logits.shape)
print("same as attn.forward:", np.allclose(logits, forward(params, source, target_in, config)))
row_sums = np.exp(log_p).sum(axis=-1)                  # (batch, n)
print("probabilities sum to 1 at every position:", np.allclose(row_sums, 1.0))
real_targets = int((target_out != 0).sum())            # padding is not predicted
loss = cross_entropy(logits, target_out, config.eps_ls, config.pad)  # one number
print(f"loss, the mean over {real_targets} real target positions: {loss:.4f}")
