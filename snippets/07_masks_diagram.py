import matplotlib.pyplot as plt
import numpy as np

from attn import causal_mask, padding_mask

# One sequence of n = 5 positions whose last two are padding, as in a padded batch.
words = ["the", "cat", "sat", "<pad>", "<pad>"]
n, length = len(words), 3
padding = np.broadcast_to(padding_mask([length], n)[0], (n, n))  # (n, n): a real key, for every query
causal = causal_mask(n)  # (n, n): key j <= query i
both = padding & causal  # (n, n): both must allow the pair
masks = {"padding (encoder)": padding, "causal": causal, "padding and causal (decoder)": both}

fig, axes = plt.subplots(1, 3, figsize=(12, 4.4), layout="constrained")
for ax, (title, mask) in zip(axes, masks.items(), strict=True):
    ax.imshow(mask, cmap="Blues", vmin=-0.4, vmax=1.3)
    for (i, j), allowed in np.ndenumerate(mask):
        ax.text(
            j,
            i,
            "✓" if allowed else "×",
            ha="center",
            va="center",
            fontsize=13,
            color="white" if allowed else "#555555",
        )
    ax.set_xticks(range(n), words, rotation=45)
    ax.set_yticks(range(n), words)
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    ax.set_title(f"{title}\n{int(mask.sum())} of {n * n} pairs allowed", fontsize=11)
    ax.tick_params(length=0)
fig.suptitle("Which key each query may attend to (✓ allowed, × masked out before the softmax)")
fig.savefig("masks.svg")
