# %% setup
import itertools
import json
import math

import matplotlib.pyplot as plt
import numpy as np

from attn import (
    Config,
    adam_step,
    attention_weights,
    count_parameters,
    forward,
    greedy_decode,
    init_adam,
    init_transformer,
    learning_rate,
    log_softmax,
    loss_and_gradients,
)

# %% model
n, BOS, PAD = 6, 10, 11  # digits are tokens 0-9; 10 begins a target; 11 pads (never needed here)
vocab, d_model, h, d_ff, N, p_drop, eps_ls = 12, 32, 2, 64, 1, 0.1, 0.1
config = Config(vocab=vocab, d_model=d_model, h=h, d_ff=d_ff, N=N, p_drop=p_drop, eps_ls=eps_ls, pad=PAD)
batch, steps, warmup = 64, 300, 100
d_k = d_model // h

# %% held-out
data_rng = np.random.default_rng(0)
held_out = data_rng.choice(10**n, size=2000, replace=False)  # 2000 distinct sequences, as numbers


def digits(codes):
    return codes[:, None] // 10 ** np.arange(n - 1, -1, -1) % 10  # (batch, n)


def with_target(source):
    begin = np.full((len(source), 1), BOS)
    return source, np.concatenate([begin, source[:, ::-1]], axis=1)  # (batch, n), (batch, n + 1)


# %% batches
def training_batch(rng):
    codes = rng.integers(0, 10**n, 2 * batch)
    codes = codes[~np.isin(codes, held_out)][:batch]  # never a held-out sequence
    return codes, *with_target(digits(codes))


# %% train
def train(config, seed=1):
    """Adam and eq. 3; batches and dropout from one Generator, so the seed fixes everything."""
    rng = np.random.default_rng(seed)
    params = init_transformer(rng, config, dtype=np.float32)  # float32: faster than float64
    state, losses, seen = init_adam(params), [], []
    for step in range(1, steps + 1):
        codes, source, target = training_batch(rng)
        loss, grads = loss_and_gradients(params, source, target, config, rng)
        rate = learning_rate(step, config.d_model, warmup)
        params, state = adam_step(params, grads, state, rate)
        losses.append(loss)
        seen.append(codes)
    return params, np.array(losses), np.concatenate(seen)


# %% runs
runs = {
    "positions, eps_ls 0.1": config,
    "no positions, eps_ls 0.1": config._replace(position=False),
    "positions, eps_ls 0": config._replace(eps_ls=0.0),
}
names = list(runs)
trained = {name: train(c) for name, c in runs.items()}
model, blind = trained[names[0]][0], trained[names[1]][0]  # with positions, and without

# %% same-start
seen_held_out = int(np.isin(trained[names[0]][2], held_out).sum())
same_batches = all(np.array_equal(trained[name][2], trained[names[0]][2]) for name in names)


def leaves(tree):
    """Every array of a parameter tree (nested dicts and lists), in a fixed order."""
    if isinstance(tree, dict):
        return [leaf for key in sorted(tree) for leaf in leaves(tree[key])]
    if isinstance(tree, list):
        return [leaf for item in tree for leaf in leaves(item)]
    return [tree]


starts = [leaves(init_transformer(np.random.default_rng(1), c, dtype=np.float32)) for c in runs.values()]  # as train()
same_weights = all(
    len(s) == len(starts[0]) and all(np.array_equal(a, b) for a, b in zip(s, starts[0], strict=True)) for s in starts
)
assert same_weights and same_batches, "the three runs must differ only in their settings"
assert seen_held_out == 0, "no training batch may contain a held-out sequence"

# %% loss
first_loss = np.array([trained[name][1][0] for name in names])
last_loss = np.array([trained[name][1][-1] for name in names])
q_right = 1 - eps_ls + eps_ls / vocab  # what smoothing trains p(right token) towards
q_other = eps_ls / vocab  # and p of each of the vocab - 1 others
loss_floor = -(q_right * np.log(q_right) + (vocab - 1) * q_other * np.log(q_other))

# %% loss-figure
plt.rcParams.update({"font.size": 12.5})  # 4.3 inches wide: 10 pt or more on a 390 px phone
fig, ax = plt.subplots(figsize=(4.3, 4.8), layout="constrained")
for (name, (_, losses, _)), style in zip(trained.items(), ("-", "--", ":"), strict=True):
    ax.plot(np.arange(1, steps + 1), losses, style, label=name, linewidth=1.5)
ax.axhline(loss_floor, color="grey", linewidth=0.8, label="lowest loss with eps_ls = 0.1")
ax.set_xlabel("training step")
ax.set_ylabel("training loss (one batch)")
ax.set_ylim(0, None)
fig.legend(loc="outside lower center", frameon=False)
fig.savefig("loss.svg")

# %% accuracy
source, target = with_target(digits(held_out))  # (2000, n), (2000, n + 1)
answer = target[:, 1:]  # (2000, n): what the decoder must produce
produced = {
    name: greedy_decode(trained[name][0], source, runs[name], steps=n, bos=BOS) for name in names
}  # (2000, n) each
exact = np.array([np.mean(np.all(produced[name] == answer, axis=1)) for name in names])
digit_accuracy = np.array([np.mean(produced[name] == answer) for name in names])
wrong_with_positions = int(np.sum(np.any(produced[names[0]] != answer, axis=1)))

# %% cross
cross = attention_weights(model, source, target[:, :-1], config)["cross"][0]  # (2000, h, n, n)
mirrored = n - 1 - np.arange(n)  # the source position output i copies
example = cross[0]  # (h, n, n): the first held-out sequence
example_mirror = example[:, np.arange(n), mirrored]  # (h, n)
mirror_mean = cross[:, :, np.arange(n), mirrored].mean(axis=(0, 2))  # (h,)
mirror_is_largest = np.mean(cross.mean(axis=1).argmax(axis=-1) == mirrored)  # heads averaged

# %% cross-figure
plt.rcParams.update({"font.size": 12.5})  # the heads stacked, 4.3 inches wide: 10 pt or more on a phone
fig, axes = plt.subplots(h, 1, figsize=(4.3, 8.0), layout="constrained")
for head, ax in enumerate(axes):
    image = ax.imshow(example[head], cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(example[head]):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", color="white" if value > 0.6 else "black")
    ax.set_xticks(range(n), [str(d) for d in source[0]])
    ax.set_yticks(range(n), [str(d) for d in answer[0]])
    ax.set_xlabel("source digit (position 0 to 5)")
    ax.set_ylabel("digit being produced")
    ax.set_title(f"cross-attention, head {head}")
    ax.tick_params(length=0)
fig.colorbar(image, ax=axes, shrink=0.6, label="attention weight", location="bottom", aspect=30)
fig.savefig("cross_attention.svg")

# %% widget_data
# The attention explorer's data: every head of the model, on four held-out sequences.
maps = attention_weights(model, source[:4], target[:4, :-1], config)  # N = 1: one layer each way


def token_text(t):
    return "BOS" if t == BOS else str(t)


with open("attention.json", "w") as f:
    json.dump(
        {
            "heads": h,
            "source": [[token_text(t) for t in row] for row in source[:4]],
            "target": [[token_text(t) for t in row] for row in target[:4, :-1]],
            "maps": {kind: maps[kind][0].round(2).tolist() for kind in ("encoder", "decoder", "cross")},
        },
        f,
    )  # maps: kind -> (4, h, n, n): row i of a head is where query position i looks

# %% order-blind
blind_config = runs[names[1]]
shuffled = np.take_along_axis(source, np.argsort(data_rng.random(source.shape), axis=1), axis=1)
blind_shuffled = greedy_decode(blind, shuffled, blind_config, steps=n, bos=BOS)
order_blind = np.array_equal(blind_shuffled, produced[names[1]])
assert order_blind, "without positions, shuffling a source must change no output"
same_digits = np.sort(produced[names[1]], axis=1) == np.sort(source, axis=1)  # (2000, n)
rearranged = np.mean(np.all(same_digits, axis=1))

# %% multisets
multisets = np.array(list(itertools.combinations_with_replacement(range(10), n)))  # (5005, n)
blind_out = greedy_decode(blind, multisets, blind_config, steps=n, bos=BOS)  # (5005, n)
rearranges = np.all(np.sort(blind_out, axis=1) == multisets, axis=1)  # (5005,)
right_multisets = int(rearranges.sum())
blind_expected = right_multisets / 10**n  # each such multiset: right for one arrangement
ceiling = len(multisets) / 10**n

# %% memorised
right_codes = blind_out[rearranges][:, ::-1] @ 10 ** np.arange(n - 1, -1, -1)  # those sequences
trained_on = np.unique(trained[names[1]][2])  # every sequence of some training batch
seen_share = len(trained_on) / 10**n
right_seen = int(np.isin(right_codes, trained_on).sum())
right_held_out = int(np.isin(right_codes, held_out).sum())
expected_seen = right_multisets * seen_share  # if training on it did not matter
expected_in_held_out = right_multisets * len(held_out) / 10**n  # if holding it out did not matter


def log_comb(a, b):
    return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)


# The chance that 2000 distinct random sequences hold at most right_held_out of the right ones
# (hypergeometric: right_multisets marked among 10^n, 2000 drawn without replacement).
p_as_few = sum(
    math.exp(
        log_comb(right_multisets, k)
        + log_comb(10**n - right_multisets, len(held_out) - k)
        - log_comb(10**n, len(held_out))
    )
    for k in range(right_held_out + 1)
)

# %% confidence
confidence, right_nll = np.zeros(2), np.zeros(2)
for i, name in enumerate((names[0], names[2])):
    logits = forward(trained[name][0], source, target[:, :-1], runs[name])  # (2000, n, vocab)
    log_p = log_softmax(logits)
    confidence[i] = np.exp(log_p).max(axis=-1).mean()  # the probability of the top token
    right_nll[i] = -np.take_along_axis(log_p, answer[..., None], axis=-1).mean()

# %% report
parameters = count_parameters(model)
peak_rate = learning_rate(warmup, d_model, warmup)
# The shares as counts, and as the percentages the page writes: each says what it is a share of.
reversed_held_out = np.array([int(np.all(produced[name] == answer, axis=1).sum()) for name in names])
held_out_pct = 100 * exact  # (3,): of the 2000 held-out sequences
blind_pct, ceiling_pct = 100 * blind_expected, 100 * ceiling  # of all 10^n sequences
rearranged_count = int(np.all(same_digits, axis=1).sum())  # of the 2000 held-out sequences
rearranged_pct = round(100 * rearranged)
seen_pct = 100 * seen_share  # of all 10^n sequences
rows = cross.shape[0] * n  # rows of cross-attention over the held-out set
rows_off_mirror = int(np.sum(cross.mean(axis=1).argmax(axis=-1) != mirrored))  # heads averaged
print(f"parameters: {parameters:,}; {steps} steps of {batch}; peak learning rate {peak_rate:.4f}")
print("held-out sequences seen in training:", seen_held_out)
print(f"{'run':26}{'first loss':>11}{'last loss':>10}{'reversed of 2000':>18}{'digits':>8}")
for i, name in enumerate(names):
    share = f"{reversed_held_out[i]} ({held_out_pct[i]:.2f}%)"
    print(f"{name:26}{first_loss[i]:>11.2f}{last_loss[i]:>10.2f}{share:>18}{digit_accuracy[i]:>8.3f}")
print(f"lowest loss eps_ls = 0.1 allows: {loss_floor:.3f}")
print(f"its output holds exactly the source's digits for {rearranged_count} of 2000 held-out sequences")
print(f"multisets it rearranges: {right_multisets:,} of {len(multisets):,}")
print(f"reversed, of all 10^{n} sequences: {right_multisets:,} ({blind_pct:.4f}%); ceiling {ceiling_pct:.4f}%")
print(f"in training batches: {len(trained_on):,} sequences, {seen_pct:.2f}% of all")
print(f"of the {right_multisets:,} it gets right: {right_seen} trained on, {right_held_out} held out")
print("greedy decoding of held-out sources, with positions | without:")
for i in range(4):
    mark = "right" if np.array_equal(produced[names[0]][i], answer[i]) else "wrong"
    print(f"  {source[i]} -> {produced[names[0]][i]} {mark} | {produced[names[1]][i]}")
print("example", source[0], "weight on the mirrored position:")
print("  head 0:", example_mirror[0].round(2), " head 1:", example_mirror[1].round(2))
print(f"held-out mean of that weight: head 0 {mirror_mean[0]:.2f}, head 1 {mirror_mean[1]:.2f}")
print(f"largest weight of its row (heads averaged) in all but {rows_off_mirror} of {rows:,} rows")
print(f"held-out, teacher-forced{'eps_ls 0.1':>14}{'eps_ls 0':>10}")
print(f"  mean top probability {confidence[0]:>15.3f}{confidence[1]:>10.3f}")
print(f"  right digit's -log p {right_nll[0]:>15.3f}{right_nll[1]:>10.3f}")
print(f"  1 - eps_ls + eps_ls / vocab = {q_right:.3f}")
