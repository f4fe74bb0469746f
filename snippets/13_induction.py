# %% setup
import matplotlib.pyplot as plt
import numpy as np

from attn import (
    Config,
    adam_step,
    causal_mask,
    decoder_only_attention_weights,
    decoder_only_loss_and_gradients,
    forward_decoder_only,
    init_adam,
    init_decoder_only,
    learning_rate,
    log_softmax,
    scaled_dot_product_attention,
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


example_row, example_k = sequences(np.random.default_rng(3), 1)
print(f"one training row, k = {example_k[0]}:")
print(example_row[0])

# %% previous-token
beta = 50.0  # sharpness: every score is 0 or beta
back = causal_mask(n) & ~np.eye(n, dtype=bool)  # strictly earlier positions


def previous_token_head(one_hot):
    """First layer: query i matches key i - 1 by position and copies its token. (..., n, vocab) -> (out, weights)."""
    query = beta * np.sqrt(n) * np.eye(n)  # (n, n): row i is position i
    key = np.eye(n, k=1)  # (n, n): row j is position j + 1
    return scaled_dot_product_attention(query, key, one_hot, mask=back, return_weights=True)


# %% match
def induction_head(one_hot, previous):
    """Second layer: query with the token, key with the copied predecessor, copy the token found -> (out, weights)."""
    query = beta * np.sqrt(vocab) * one_hot  # (..., n, vocab)
    return scaled_dot_product_attention(query, previous, one_hot, mask=back, return_weights=True)


# %% circuit
test, k = sequences(np.random.default_rng(99), 1000)  # held-out rows, (1000, n + 1)
one_hot = np.eye(vocab)[test[:, :-1]]  # (1000, n, vocab)
previous, previous_weights = previous_token_head(one_hot)  # (1000, n, vocab), (n, n)
guess, circuit_weights = induction_head(one_hot, previous)  # (1000, n, vocab), (1000, n, n)
position = np.broadcast_to(np.arange(n), test[:, 1:].shape)  # (1000, n): query i predicts i + 1
queries = position >= k[:, None]  # token i occurred before
right = guess.argmax(-1) == test[:, 1:]  # (1000, n)
circuit_right, n_queries = int(right[queries].sum()), int(queries.sum())
assert circuit_right == n_queries, "every token seen before is followed by the right guess"
print("hand-set circuit, 1000 held-out rows:")
print(f"{circuit_right:,} of {n_queries:,} right after a seen token")

# %% stripe-figure
row = np.flatnonzero(k == 4)[0]  # a held-out row with blocks of 4
labels = test[row, :-1]
plt.rcParams.update({"font.size": 10})
fig, axes = plt.subplots(1, 2, figsize=(4.4, 2.7), sharey=True, layout="constrained")
maps = [previous_weights, circuit_weights[row]]
for ax, w, title in zip(axes, maps, ["layer 1: previous token", "layer 2: induction"], strict=True):
    ax.imshow(w, cmap="Oranges", vmin=0, vmax=1)
    ax.set_xticks(range(n), labels, fontsize=8)
    ax.set_yticks(range(n), labels, fontsize=8)
    ax.tick_params(length=2)
    ax.set_title(title, fontsize=10)
axes[0].set_ylabel("query (current token)")
fig.supxlabel("key position, labelled by its token", fontsize=10)
fig.savefig("circuit.svg")

# %% test
predecessor = np.concatenate([np.full((1000, 1), -1), test[:, :-2]], axis=1)  # (1000, n): token j - 1
matches = (predecessor[:, None, :] == test[:, :-1, None]) & causal_mask(n)  # (1000, n, n): query i, key j
assert np.array_equal(matches.any(-1), queries), "a key matches exactly when the token occurred before"


def weight_on(weights, keys, rows):
    """Mean summed weight per head on the keys where keys is True, over the queries where rows is True.

    weights (m, h, n, n), keys (m, n, n), rows (m, n) -> (h,).
    """
    return ((weights * keys[:, None]).sum(-1) * rows[:, None]).sum(axis=(0, 2)) / rows.sum()


# %% calibrate
control, _ = sequences(np.random.default_rng(99), 1000, repeat=False)  # same k, no repetition
fresh_hot = np.eye(vocab)[control[:, :-1]]  # (1000, n, vocab)
_, fresh_circuit = induction_head(fresh_hot, previous_token_head(fresh_hot)[0])
circuit_share = weight_on(circuit_weights[:, None], matches, queries)[0]
circuit_fresh = weight_on(fresh_circuit[:, None], matches, queries)[0]
uniform = ((matches.sum(-1) / (position + 1)) * queries).sum() / queries.sum()
print("hand-set second-layer head:")
print(f"{circuit_share:.2f} on repeated rows, {circuit_fresh:.2f} on fresh rows")
print(f"uniform causal head:   {uniform:.2f}")

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
log_p = log_softmax(forward_decoder_only(params, test[:, :-1], config))  # (1000, n, vocab)
nll = -np.take_along_axis(log_p, test[:, 1:, None], axis=-1)[..., 0]  # (1000, n)
repeats = position + 1 >= k[:, None]  # token i + 1 seen before
first_pass, repeat_loss = nll[~repeats].mean(), nll[repeats].mean()
ln_vocab = np.log(vocab)  # the loss of a uniform guess
print("loss, nats per token:")
print(f"first pass {first_pass:.3f}, repeats {repeat_loss:.3f}")
print(f"(ln vocab = {ln_vocab:.3f})")

# %% reserve
seen = np.maximum.accumulate(one_hot, axis=1) > 0  # (1000, n, vocab): tokens seen up to query i
held = (np.exp(log_p) * seen).sum(-1)  # (1000, n): probability held back for a repeat
ks = np.arange(periods[0], periods[1] + 1)  # block lengths, equally likely
after = np.arange(1, periods[1])  # first-pass queries have seen 1 to 5 distinct tokens
best = np.array([np.mean(ks[ks >= j] == j) for j in after])  # P(repeat now | j tokens, none yet)
held_after = np.array([held[~repeats & (position + 1 == j)].mean() for j in after])  # (5,)
assert np.all(held_after[best == 0] > 0.05), "it holds back probability where no repeat can start"
print("probability held back for a repeat on the first pass, by tokens seen so far:")
print("  tokens seen       " + "".join(f"{j:6d}" for j in after))
print("  trained model     " + "".join(f"{x:6.2f}" for x in held_after))
print("  best possible     " + "".join(f"{x:6.2f}" for x in best))
first = ~repeats  # (1000, n): the first-pass tokens
best_held = np.select([position + 1 == j for j in after], best)[first]  # the best model's reserve there
best_loss = (np.log(vocab - position - 1)[first] - np.log1p(-best_held)).mean()  # uniform over unseen
excess = np.log1p(-best_held).mean() - np.log1p(-held[first]).mean()  # nats lost to the larger reserve
gap = first_pass - best_loss
assert gap / 2 < excess < gap, "the larger reserve is most of the gap to the best loss"
print(f"first pass: {gap:.2f} nats above the best model on these tokens, {excess:.2f} of it from the reserve")

# %% compare
on_test = decoder_only_attention_weights(params, test[:, :-1], config)  # N arrays (1000, h, n, n)
on_control = decoder_only_attention_weights(params, control[:, :-1], config)
induction = np.stack([weight_on(w, matches, queries) for w in on_test])  # (N, h)
same_places = np.stack([weight_on(w, matches, queries) for w in on_control])  # (N, h)
assert np.all(induction[1] < same_places[1]), "second layer: less on the matching keys than in fresh rows"
print("trained heads, weight on matching keys:")
print("               layer 1    layer 2")
print("repeated rows  {:.2f} {:.2f}  {:.2f} {:.2f}".format(*induction.ravel()))
print("fresh rows     {:.2f} {:.2f}  {:.2f} {:.2f}".format(*same_places.ravel()))

# %% recent
after_previous = np.clip(position - k[:, None] + 1, 0, n - 1)  # the key after i's most recent occurrence
recent = after_previous[..., None] == np.arange(n)  # (1000, n, n)
recent_induction = np.stack([weight_on(w, recent, queries) for w in on_test])  # (N, h)
recent_same = np.stack([weight_on(w, recent, queries) for w in on_control])  # (N, h)
assert np.all(recent_induction[1] < recent_same[1]), "second layer: less there than in fresh rows, too"
print("weight on the key after the most recent occurrence only, layer 1 | layer 2 heads:")
print("  repeated rows", recent_induction.round(2).tolist())
print("  fresh rows   ", recent_same.round(2).tolist())
