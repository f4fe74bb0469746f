import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from attn import encoder_layer, feed_forward, init_encoder_layer, layer_norm, multi_head_attention, pre_norm_layer

# One layer with random weights on an input that is not normalised; the stream is followed step by step.
rng = np.random.default_rng(0)
n, d_model, d_ff, h = 4, 8, 32, 2
x = 3 * rng.standard_normal((n, d_model))  # (n, d_model)
p = init_encoder_layer(rng, d_model, d_ff)


def attend(z):
    return multi_head_attention(z, z, p["self_attn"], h)  # (n, d_model)


post = [x]  # the paper's post-norm: LayerNorm(x + Sublayer(x)), twice
post.append(layer_norm(post[-1] + attend(post[-1]), **p["norm1"]))
post.append(layer_norm(post[-1] + feed_forward(post[-1], p["ffn"]), **p["norm2"]))
pre = [x]  # pre-norm: x + Sublayer(LayerNorm(x)), twice; the stream is only added to
pre.append(pre[-1] + attend(layer_norm(pre[-1], **p["norm1"])))
pre.append(pre[-1] + feed_forward(layer_norm(pre[-1], **p["norm2"]), p["ffn"]))
assert np.allclose(post[-1], encoder_layer(x, p, h)) and np.allclose(pre[-1], pre_norm_layer(x, p, h))


def box(ax, x0, y, text, colour):
    ax.add_patch(
        FancyBboxPatch((x0 - 1.1, y - 0.32), 2.2, 0.64, boxstyle="round,pad=0.05", facecolor=colour, edgecolor="black")
    )
    ax.text(x0, y, text, ha="center", va="center", fontsize=10)


def arrow(ax, a, b, style="-|>"):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle=style, mutation_scale=13, color="black", shrinkA=0, shrinkB=0))


fig, ax = plt.subplots(figsize=(10, 7.4), layout="constrained")
for col, (title, stream, norm_on_stream) in enumerate(
    (("post-norm (the paper)", post, True), ("pre-norm (many later models)", pre, False))
):
    s = col * 7.0  # the stream's x position
    ax.text(s + 1.4, 9.3, title, ha="center", fontsize=12, weight="bold")
    ax.text(s - 0.3, 0.2, f"x\nstd {stream[0][0].std():.2f}", ha="right", va="center", fontsize=10)
    y = 0.6
    for k, name in enumerate(("multi-head\nattention", "feed-forward")):
        plus = y + (1.7 if norm_on_stream else 2.3)
        arrow(ax, (s, y), (s, plus - 0.22))
        ax.add_patch(plt.Circle((s, plus), 0.22, facecolor="white", edgecolor="black"))
        ax.text(s, plus, "+", ha="center", va="center", fontsize=12)
        branch, fork = s + 2.8, y + 0.2
        arrow(ax, (s, fork), (branch, fork), style="-")
        if norm_on_stream:
            box(ax, branch, y + 0.9, name.replace("\n", " "), "#d9e8f5")
            ends = (y + 0.53, y + 1.27)
        else:
            box(ax, branch, y + 0.75, "LayerNorm", "#fde2c4")
            box(ax, branch, y + 1.6, name.replace("\n", " "), "#d9e8f5")
            ends = (y + 0.38, y + 1.97)
        arrow(ax, (branch, fork), (branch, ends[0]), style="-")
        arrow(ax, (branch, ends[1]), (branch, plus), style="-")
        arrow(ax, (branch, plus), (s + 0.22, plus))
        y = plus + 0.22
        if norm_on_stream:
            box(ax, s, y + 0.75, "LayerNorm", "#fde2c4")
            arrow(ax, (s, y), (s, y + 0.43))
            y += 1.07
        ax.text(s - 0.3, y + 0.15, f"std {stream[k + 1][0].std():.2f}", ha="right", va="center", fontsize=10)
    arrow(ax, (s, y), (s, y + 0.6))
    ax.text(s, y + 0.75, "to the next layer", ha="center", fontsize=10)
ax.text(
    6.2,
    -0.5,
    f"std: the spread of token 0's row of width {d_model} at each point of the stream",
    ha="center",
    fontsize=10,
)
ax.set_xlim(-2.2, 12.6)
ax.set_ylim(-0.8, 9.6)
ax.set_aspect("equal")
ax.axis("off")
fig.savefig("residual_stream.svg", bbox_inches="tight", pad_inches=0.1)
