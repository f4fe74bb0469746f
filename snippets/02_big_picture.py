# %% pass
import matplotlib.pyplot as plt
import numpy as np

from attn import (
    Config,
    causal_mask,
    embed,
    encoder_layer,
    forward_decoder_only,
    init_decoder_only,
    output_logits,
    softmax,
)

# One sentence through an untrained decoder-only Transformer, every array's shape read off the pass.
words = ["<pad>", "the", "cat", "sat", "on", "a", "mat", "."]
sentence = ["the", "cat", "sat", "on", "a"]
config = Config(vocab=len(words), d_model=16, h=2, d_ff=32, N=2)
params = init_decoder_only(np.random.default_rng(0), config)

tokens = np.array([words.index(w) for w in sentence])  # (n,): token ids
x = embed(tokens, params["embedding"])  # (n, d_model): embeddings + positions
shapes = [tokens.shape, x.shape]
for layer in params["layers"]:  # N layers: masked attention, then feed-forward
    # A decoder-only layer is the encoder's layer run with a causal mask: each word sees only the past.
    x = encoder_layer(x, layer, config.h, causal_mask(len(tokens)))  # (n, d_model)
    shapes.append(x.shape)
logits = output_logits(x, params["embedding"])  # (n, vocab): row i scores token i + 1
probabilities = softmax(logits[-1])  # (vocab,): what follows "a"
shapes += [logits.shape, probabilities.shape]
one_call = forward_decoder_only(params, tokens[None], config)[0]  # (n, vocab): the same model in one call
assert np.allclose(logits, one_call), "the stage-by-stage pass gives the model's logits"
print("shapes:", *shapes)

# %% figure
labels = [
    "token ids",
    "embeddings + positions",
    "layer 1: attention, feed-forward",
    "layer 2: attention, feed-forward",
    "logits",
    "next-token probabilities",
]
# One box per stage, top to bottom, 4.2 inches wide with 12 pt text: shown 342 px wide on a
# 390 px phone, every label reads at 10 pt or more.
width, box_h, gap = 4.2, 0.42, 0.25
height = 0.45 + len(labels) * (box_h + gap) - gap + 0.05
fig = plt.figure(figsize=(width, height))
ax = fig.add_axes((0, 0, 1, 1))
ax.text(0.05, height - 0.05, '"' + " ".join(sentence) + ' ..."', fontsize=12.5, va="top")
for i, (label, shape) in enumerate(zip(labels, shapes, strict=True)):
    top = height - 0.45 - i * (box_h + gap)
    ax.add_patch(plt.Rectangle((0.05, top - box_h), width - 0.1, box_h, facecolor="#dfe6f7", edgecolor="black"))
    ax.text(0.18, top - box_h / 2, label, ha="left", va="center", fontsize=12)
    ax.text(width - 0.18, top - box_h / 2, str(shape), ha="right", va="center", fontsize=12, family="monospace")
    if i:
        ax.annotate("", xy=(width / 2, top), xytext=(width / 2, top + gap), arrowprops={"arrowstyle": "->"})
ax.set_xlim(0, width)
ax.set_ylim(0, height)
ax.axis("off")
fig.savefig("big_picture.svg")
