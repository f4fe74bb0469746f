import itertools

import matplotlib.pyplot as plt
import numpy as np

from attn import (Config, adam_step, attention_weights, count_parameters, forward, greedy_decode, init_adam,
                  init_transformer, learning_rate, log_softmax, loss_and_gradients)

# ---- the task and the model -------------------------------------------------------------------------
n, BOS, PAD = 6, 10, 11  # digits are tokens 0-9; 10 begins a target; 11 pads (this task never needs it)
vocab, d_model, h, d_ff, N, p_drop, eps_ls = 12, 32, 2, 64, 1, 0.1, 0.1
config = Config(vocab=vocab, d_model=d_model, h=h, d_ff=d_ff, N=N, p_drop=p_drop, eps_ls=eps_ls, pad=PAD)
batch, steps, warmup = 64, 300, 100
d_k = d_model // h

data_rng = np.random.default_rng(0)
held_out = data_rng.choice(10**n, size=2000, replace=False)  # 2000 distinct sequences, as n-digit numbers


def digits(codes):
    return codes[:, None] // 10 ** np.arange(n - 1, -1, -1) % 10  # (batch, n)


def with_target(source):
    return source, np.concatenate([np.full((len(source), 1), BOS), source[:, ::-1]], axis=1)  # (batch, n + 1)


def training_batch(rng):
    codes = rng.integers(0, 10**n, 2 * batch)
    codes = codes[~np.isin(codes, held_out)][:batch]  # a held-out sequence is never trained on
    return codes, *with_target(digits(codes))


def train(config, seed=1):
    """Adam with the schedule of eq. 3; dropout and batches from one Generator, so a seed fixes everything."""
    rng = np.random.default_rng(seed)
    params = init_transformer(rng, config)
    state, losses, seen = init_adam(params), [], []
    for step in range(1, steps + 1):
        codes, source, target = training_batch(rng)
        loss, grads = loss_and_gradients(params, source, target, config, rng)
        params, state = adam_step(params, grads, state, learning_rate(step, config.d_model, warmup))
        losses.append(loss)
        seen.append(codes)
    return params, np.array(losses), np.concatenate(seen)


runs = {"positions, eps_ls 0.1": config,
        "no positions, eps_ls 0.1": config._replace(position=False),
        "positions, eps_ls 0": config._replace(eps_ls=0.0)}
trained = {name: train(c) for name, c in runs.items()}

# ---- held-out accuracy ------------------------------------------------------------------------------
names = list(runs)
source, target = with_target(digits(held_out))  # (2000, n), (2000, n + 1)
answer = target[:, 1:]                             # (2000, n): what the decoder must produce
parameters = count_parameters(trained[names[0]][0])
peak_rate = learning_rate(warmup, config.d_model, warmup)
seen_held_out = int(np.isin(trained[names[0]][2], held_out).sum())
print(f"parameters: {parameters:,}; {steps} steps of {batch} sequences; peak learning rate {peak_rate:.4f}")
same_batches = all(np.array_equal(trained[name][2], trained[names[0]][2]) for name in names)
print("held-out sequences seen in training:", seen_held_out, " the three runs saw the same batches:", same_batches)
print(f"{'run':26}{'first loss':>11}{'last loss':>10}{'exact match':>12}{'digits':>8}")
produced = {name: greedy_decode(trained[name][0], source, runs[name], steps=n, bos=BOS) for name in names}
first_loss = np.array([trained[name][1][0] for name in names])
last_loss = np.array([trained[name][1][-1] for name in names])
exact = np.array([np.mean(np.all(produced[name] == answer, axis=1)) for name in names])
digit_accuracy = np.array([np.mean(produced[name] == answer) for name in names])
wrong_with_positions = int(np.sum(np.any(produced[names[0]] != answer, axis=1)))
for i, name in enumerate(names):
    print(f"{name:26}{first_loss[i]:>11.2f}{last_loss[i]:>10.2f}{exact[i]:>12.3f}{digit_accuracy[i]:>8.3f}")
q_right = 1 - config.eps_ls + config.eps_ls / config.vocab  # smoothing's target for the right token
q_other = config.eps_ls / config.vocab                       # and for each of the other vocab - 1
loss_floor = -(q_right * np.log(q_right) + (config.vocab - 1) * q_other * np.log(q_other))
print(f"lowest loss eps_ls = 0.1 allows: {loss_floor:.3f}")

# ---- without positions: blind to the order of the source ---------------------------------------------
blind, blind_config = trained[names[1]][0], runs[names[1]]
shuffled = np.take_along_axis(source, np.argsort(data_rng.random(source.shape), axis=1), axis=1)
order_blind = np.array_equal(greedy_decode(blind, shuffled, blind_config, steps=n, bos=BOS), produced[names[1]])
print("without positions, shuffling every source changes no output:", order_blind)
rearranged = np.mean(np.all(np.sort(produced[names[1]], axis=1) == np.sort(source, axis=1), axis=1))
print(f"its output holds exactly the source's digits for {rearranged:.3f} of held-out sequences")
multisets = np.array(list(itertools.combinations_with_replacement(range(10), n)))  # (5005, n), one per multiset
blind_multisets = greedy_decode(blind, multisets, blind_config, steps=n, bos=BOS)
right_multisets = int(np.all(np.sort(blind_multisets, axis=1) == multisets, axis=1).sum())
blind_expected = right_multisets / 10**n  # each such multiset: right for 1 of its arrangements
ceiling = len(multisets) / 10**n
print(f"multisets it rearranges: {right_multisets:,} of {len(multisets):,}; exact match over all 10^{n}"
      f" sequences: {blind_expected:.6f} (ceiling {ceiling:.6f})")
# It answers exactly one sequence right per such multiset: the one whose reverse it produces.
right_codes = (blind_multisets[np.all(np.sort(blind_multisets, axis=1) == multisets, axis=1)][:, ::-1]
               @ 10 ** np.arange(n - 1, -1, -1))  # (right_multisets,) those sequences, as n-digit numbers
trained_on = np.unique(trained[names[1]][2])  # every sequence in some training batch
right_seen = int(np.isin(right_codes, trained_on).sum())
right_held_out = int(np.isin(right_codes, held_out).sum())
seen_share = len(trained_on) / 10**n
expected_seen = right_multisets * seen_share                    # if being trained on made no difference
expected_in_held_out = right_multisets * len(held_out) / 10**n  # if being held out made no difference
print(f"sequences in training batches: {len(trained_on):,} ({seen_share:.4f} of all);"
      f" of the {right_multisets:,} it gets right, {right_seen} were trained on, {right_held_out} are held out")

# ---- greedy decoding, and where the decoder looks ----------------------------------------------------
model = trained[names[0]][0]
print("greedy decoding of held-out sources, with positions | without:")
for i in range(4):
    one = greedy_decode(model, source[i:i + 1], config, steps=n, bos=BOS)[0]  # the same, one at a time
    print(f"  {source[i]} -> {one} {'right' if np.array_equal(one, answer[i]) else 'wrong'} | {produced[names[1]][i]}")
cross = attention_weights(model, source, target[:, :-1], config)["cross"][0]  # (2000, h, n, n): output i, source j
mirrored = n - 1 - np.arange(n)                                               # the source position output i copies
example = cross[0]                                                            # (h, n, n)
example_mirror = example[:, np.arange(n), mirrored]                           # (h, n)
mirror_mean = cross[:, :, np.arange(n), mirrored].mean(axis=(0, 2))           # (h,): over rows and sequences
mirror_is_largest = np.mean(cross.mean(axis=1).argmax(axis=-1) == mirrored)   # heads averaged
print("example", source[0], "weight on the mirrored position, head 0:", example_mirror[0].round(2),
      " head 1:", example_mirror[1].round(2))
print(f"held-out mean weight on the mirrored position: head 0 {mirror_mean[0]:.2f}, head 1 {mirror_mean[1]:.2f};"
      f" the largest of its row (heads averaged) in {mirror_is_largest:.3f} of rows")

# ---- what label smoothing does to confidence ---------------------------------------------------------
print(f"held-out, teacher-forced{'eps_ls 0.1':>14}{'eps_ls 0':>10}")
confidence, right_nll = np.zeros(2), np.zeros(2)
for i, name in enumerate((names[0], names[2])):
    log_p = log_softmax(forward(trained[name][0], source, target[:, :-1], runs[name]))  # (2000, n, vocab)
    confidence[i] = np.exp(log_p).max(axis=-1).mean()                            # the top token's probability
    right_nll[i] = -np.take_along_axis(log_p, answer[..., None], axis=-1).mean()  # -log p of the right digit
print(f"  mean top probability {confidence[0]:>15.3f}{confidence[1]:>10.3f}")
print(f"  right digit's -log p {right_nll[0]:>15.3f}{right_nll[1]:>10.3f}")
print(f"  1 - eps_ls + eps_ls / vocab = {q_right:.3f}")

# ---- figures ------------------------------------------------------------------------------------------
fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
for (name, (_, losses, _)), style in zip(trained.items(), ("-", "--", ":")):  # one batch per step
    ax.plot(np.arange(1, steps + 1), losses, style, label=name, linewidth=1.5)
ax.axhline(loss_floor, color="grey", linewidth=0.8)
ax.annotate("lowest loss with eps_ls = 0.1", (0, loss_floor), xytext=(4, -14), textcoords="offset points")
ax.set_xlabel("training step")
ax.set_ylabel("training loss (one batch)")
ax.set_ylim(0, None)
ax.legend()
fig.savefig("loss.svg")

fig, axes = plt.subplots(1, config.h, figsize=(9, 4.2), layout="constrained")
for head, ax in enumerate(axes):
    image = ax.imshow(example[head], cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(example[head]):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=9, color="white" if value > 0.6 else "black")
    ax.set_xticks(range(n), [f"{d}" for d in source[0]])
    ax.set_yticks(range(n), [f"{d}" for d in answer[0]])
    ax.set_xlabel("source digit (position 0 to 5)")
    ax.set_ylabel("digit being produced")
    ax.set_title(f"cross-attention, head {head}")
    ax.tick_params(length=0)
fig.colorbar(image, ax=axes, shrink=0.8, label="attention weight")
fig.savefig("cross_attention.svg")
