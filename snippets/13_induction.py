# %% setup
import numpy as np

from attn import (
    Config,
    adam_step,
    decoder_only_attention_weights,
    decoder_only_loss_and_gradients,
    forward_decoder_only,
    init_adam,
    init_decoder_only,
    learning_rate,
    log_softmax,
)

# %% task
vocab, n, periods = 16, 12, (3, 6)  # tokens, sequence length, shortest and longest repeated block


def sequences(rng, count, repeat=True):
    """count rows of n + 1 tokens: k distinct random tokens, then the same k again and again.

    k is drawn per row from periods, so no fixed offset predicts the next token. Without
    repeat, every position gets a fresh random token (the control). -> (tokens, k)
    """
    k = rng.integers(periods[0], periods[1] + 1, count)  # (count,)
    block = np.argsort(rng.random((count, vocab)), axis=1)  # distinct tokens per row
    tokens = np.take_along_axis(block, np.arange(n + 1) % k[:, None], 1)  # (count, n + 1)
    return (tokens if repeat else rng.integers(0, vocab, (count, n + 1))), k


print("one training row, k =", *sequences(np.random.default_rng(3), 1)[::-1], sep=" ")

# %% train
config = Config(vocab=vocab, d_model=32, h=2, d_ff=64, N=2, p_drop=0.0, eps_ls=0.0, pad=None)
steps, batch, warmup = 1500, 32, 100
rng = np.random.default_rng(0)
params, losses = init_decoder_only(rng, config, dtype=np.float32), []  # float32: faster than float64
state = init_adam(params)
for step in range(1, steps + 1):
    loss, grads = decoder_only_loss_and_gradients(params, sequences(rng, batch)[0], config, rng)
    params, state = adam_step(params, grads, state, learning_rate(step, config.d_model, warmup))
    losses.append(loss)

# %% measure
test, k = sequences(np.random.default_rng(99), 1000)  # held-out rows
log_p = log_softmax(forward_decoder_only(params, test[:, :-1], config))  # (1000, n, vocab)
nll = -np.take_along_axis(log_p, test[:, 1:, None], axis=-1)[..., 0]  # (1000, n)
position = np.broadcast_to(np.arange(n), nll.shape)  # query i predicts i + 1
repeats = position + 1 >= k[:, None]  # token i + 1 seen before
first_pass, repeat_loss = nll[~repeats].mean(), nll[repeats].mean()
ln_vocab = np.log(vocab)  # the loss of a uniform guess

# %% attention
after_previous = np.clip(position - k[:, None] + 1, 0, n - 1)  # the token after i's previous occurrence
queries = position >= k[:, None]


def weight_on(weights, keys, rows):
    """Mean weight each head puts on keys[..., i] over the rows where rows is True -> (h,)."""
    picked = np.take_along_axis(weights, np.broadcast_to(keys[:, None, :, None], weights.shape[:3] + (1,)), -1)
    return (picked[..., 0] * rows[:, None, :]).sum(axis=(0, 2)) / rows.sum()


control, _ = sequences(np.random.default_rng(99), 1000, repeat=False)  # same k, no repetition
induction = np.stack(
    [weight_on(w, after_previous, queries) for w in decoder_only_attention_weights(params, test[:, :-1], config)]
)  # (N, h)
same_offset = np.stack(
    [weight_on(w, after_previous, queries) for w in decoder_only_attention_weights(params, control[:, :-1], config)]
)  # (N, h)
uniform = ((1 / (position + 1)) * queries).sum() / queries.sum()
print(f"loss, nats per token: first pass {first_pass:.3f}, repeats {repeat_loss:.3f} (ln vocab = {ln_vocab:.3f})")
print("weight on the token after the previous occurrence, layer 0 | layer 1 heads:")
print("  repeated sequences ", induction.round(2).tolist())
print("  same offsets, fresh", same_offset.round(2).tolist())
print(f"  uniform causal head {uniform:.2f}")
