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
    "embeddings\n+ positions",
    "layer 1:\nattention,\nfeed-forward",
    "layer 2:\nattention,\nfeed-forward",
    "logits",
    "next-token\nprobabilities",
]
fig, ax = plt.subplots(figsize=(11, 2.6), layout="constrained")
for i, (label, shape) in enumerate(zip(labels, shapes, strict=True)):
    ax.add_patch(plt.Rectangle((i * 2, 0), 1.5, 1.6, facecolor="#dfe6f7", edgecolor="black"))
    ax.text(i * 2 + 0.75, 1.0, label, ha="center", va="center", fontsize=10)
    ax.text(i * 2 + 0.75, 0.25, str(shape), ha="center", va="center", fontsize=10, family="monospace")
    if i:
        ax.annotate("", xy=(i * 2, 0.8), xytext=(i * 2 - 0.5, 0.8), arrowprops={"arrowstyle": "->"})
ax.text(0, 1.9, '"' + " ".join(sentence) + ' ..."', fontsize=11)
ax.set_xlim(-0.2, 11.7)
ax.set_ylim(-0.2, 2.2)
ax.axis("off")
fig.savefig("big_picture.svg")
