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

# Three panels stacked, 4 inches wide: on a 390 px phone every label still reads at 10 pt or more.
fig, axes = plt.subplots(3, 1, figsize=(4.0, 10.6), layout="constrained")
for ax, (title, mask) in zip(axes, masks.items(), strict=True):
    ax.imshow(mask, cmap="Blues", vmin=-0.4, vmax=1.3)
    for (i, j), allowed in np.ndenumerate(mask):
        ax.text(
            j,
            i,
            "✓" if allowed else "×",
            ha="center",
            va="center",
            fontsize=14,
            color="white" if allowed else "#555555",
        )
    ax.set_xticks(range(n), words, rotation=45, fontsize=12.5)
    ax.set_yticks(range(n), words, fontsize=12.5)
    ax.set_xlabel("key", fontsize=12.5)
    ax.set_ylabel("query", fontsize=12.5)
    ax.set_title(f"{title}\n{int(mask.sum())} of {n * n} pairs allowed", fontsize=12.5)
    ax.tick_params(length=0)
fig.suptitle("✓ may attend, × masked out", fontsize=12.5)
fig.savefig("masks.svg")
