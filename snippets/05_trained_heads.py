# %% task
import itertools

import matplotlib.pyplot as plt
import numpy as np

from attn import adam_step, init_adam, init_multi_head, multi_head_attention, multi_head_attention_backward

# Every position must output the token before it and the token after it. The sequence is a circle:
# the first token's "before" is the last token, and the last token's "after" is the first.
vocab, n = 3, 5  # three tokens (a, b, c), five positions
d_model = vocab + n  # 8 columns: which token it is (3), where it sits (5)
tokens = np.array(list(itertools.product(range(vocab), repeat=n)))  # (243, n): every sequence
where = np.broadcast_to(np.eye(n), (len(tokens), n, n))  # (243, n, n): one-hot positions
X = np.concatenate([np.eye(vocab)[tokens], where], axis=-1)  # (243, n, d_model)
before, after = np.roll(tokens, 1, axis=1), np.roll(tokens, -1, axis=1)  # (243, n) each
T = np.zeros_like(X)  # (243, n, d_model): the right output
T[..., :vocab] = np.eye(vocab)[before]  # columns 0-2: the token before, one-hot
T[..., vocab : 2 * vocab] = np.eye(vocab)[after]  # columns 3-5: the token after; 6-7 stay 0

# %% train
seed, steps, lr = 4, 200, 0.05


def train(h, seed=seed, steps=steps):
    """Adam on the squared error, summed over a position's 8 columns and averaged over positions."""
    params = init_multi_head(np.random.default_rng(seed), d_model)  # the same start whatever h is
    state = init_adam(params)
    for _ in range(steps):
        out = multi_head_attention(X, X, params, h)  # (243, n, d_model)
        d_out = 2 * (out - T) / (len(X) * n)  # the loss's gradient with respect to out
        _, _, grads = multi_head_attention_backward(d_out, X, X, params, h)  # page 10 derives it
        params, state = adam_step(params, grads, state, lr)
    return params, float(((multi_head_attention(X, X, params, h) - T) ** 2).sum(axis=-1).mean())


(two_heads, loss_two), (one_head, loss_one) = train(h=2), train(h=1)
print(f"loss, 2 heads of width 4: {loss_two:.4f}")
print(f"loss, 1 head of width 8:  {loss_one:.4f}")

# %% check
shapes_two, shapes_one = ({name: w.shape for name, w in p.items()} for p in (two_heads, one_head))
assert shapes_two == shapes_one == dict.fromkeys(("W_q", "W_k", "W_v", "W_o"), (d_model, d_model)), "the same weights"
pos = np.arange(n)
_, w_two = multi_head_attention(X, X, two_heads, 2, return_weights=True)  # (243, 2, n, n)
_, w_one = multi_head_attention(X, X, one_head, 1, return_weights=True)  # (243, 1, n, n)
before_head = int(w_two[..., pos, (pos - 1) % n].mean(axis=(0, 2)).argmax())  # the head that weights "before" most
after_head = 1 - before_head
assert (w_two[:, before_head].argmax(axis=-1) == (pos - 1) % n).all(), "one head reads the token before"
assert (w_two[:, after_head].argmax(axis=-1) == (pos + 1) % n).all(), "the other reads the token after"
least_two = min(w_two[:, before_head, pos, (pos - 1) % n].min(), w_two[:, after_head, pos, (pos + 1) % n].min())
least_two_pct = 100 * least_two
one_before = w_one[:, 0, pos, (pos - 1) % n].mean()  # the single head's mean weight on the token before
one_after = w_one[:, 0, pos, (pos + 1) % n].mean()  # and on the token after
one_before_pct, one_after_pct = 100 * one_before, 100 * one_after
assert loss_one > 100 * loss_two, "the single head ends far above the two heads"


def both_right(params, h):
    """The share of positions where each block's largest entry names the right token."""
    out = multi_head_attention(X, X, params, h)  # (243, n, d_model)
    right = (out[..., :vocab].argmax(-1) == before) & (out[..., vocab : 2 * vocab].argmax(-1) == after)
    return float(right.mean())


right_two, right_one = both_right(two_heads, 2), both_right(one_head, 1)
assert right_two == 1.0, "the two heads read both neighbours right at every position"
percent_two, percent_one = 100 * right_two, 100 * right_one
print(f"2 heads: head {before_head} reads the token before, head {after_head} the token after")
print(f"2 heads: smallest weight on that neighbour, over all 243 x 5 positions: {least_two_pct:.1f}%")
print(f"1 head: mean weight {one_before_pct:.1f}% on the token before, {one_after_pct:.1f}% on the token after")
print(f"positions with both neighbours read right: 2 heads {percent_two:.1f}%, 1 head {percent_one:.1f}%")

# %% seeds
# The two-head model again from eight other seeds, for 100 steps each (half as many, to keep this quick).
other_seeds, short = [s for s in range(9) if s != seed], 100


def shares(params):
    """(h, 2): each head's mean weight on the token before (column 0) and on the token after (column 1)."""
    _, w = multi_head_attention(X, X, params, 2, return_weights=True)  # (243, 2, n, n)
    return np.stack([w[..., pos, (pos - 1) % n].mean(axis=(0, 2)), w[..., pos, (pos + 1) % n].mean(axis=(0, 2))], -1)


runs = [train(h=2, seed=s, steps=short) for s in other_seeds]
seed_losses = np.array([loss for _, loss in runs])  # (8,)
seed_shares = np.array([shares(params) for params, _ in runs])  # (8, 2, 2)
for s, loss, (head_0, head_1) in zip(other_seeds, seed_losses, 100 * seed_shares, strict=True):
    print(f"seed {s}: loss {loss:.4f}; head 0 {head_0[0]:3.0f}% before, {head_0[1]:3.0f}% after;", end=" ")
    print(f"head 1 {head_1[0]:3.0f}% before, {head_1[1]:3.0f}% after")
loss_bar, share_bar = 0.01, 80  # near zero: a loss below loss_bar; a head reads a neighbour: share_bar% or more
near = seed_losses < loss_bar  # (8,)
# A clean split: one head reads the token before, the other the token after (mean weights, in either order).
on_before, on_after = 100 * seed_shares[..., 0] >= share_bar, 100 * seed_shares[..., 1] >= share_bar  # (8, 2) each
split_clean = (on_before[:, 0] & on_after[:, 1]) | (on_before[:, 1] & on_after[:, 0])  # (8,)
mixing = (seed_shares >= 0.2).all(axis=-1).any(axis=-1)  # (8,): some head puts 20% or more on each neighbour
assert (split_clean <= near).all(), "every clean split also reached a loss near zero"
assert (split_clean | mixing).all(), "every other run has a head that reads a mix of both neighbours"
near_zero, clean, mixed_near_zero = int(near.sum()), int(split_clean.sum()), int((near & ~split_clean).sum())
runs_count = len(other_seeds)
print(f"of {runs_count} other seeds, {short} steps each:", end=" ")
print(f"loss below {loss_bar} in {near_zero}, a clean split in {clean}")

# %% figure
example = int(np.flatnonzero((tokens == [0, 2, 1, 1, 0]).all(axis=1))[0])  # the sequence a c b b a
labels = [f"{i}: {'abc'[t]}" for i, t in enumerate(tokens[example])]
colours = {before_head: "#4c8bc9", after_head: "#f0a04b"}  # as in the diagram of the heads above
panels = [
    ([(w_two[example, k], colours[k]) for k in (before_head, after_head)], "2 heads of width 4"),
    ([(w_one[example, 0], "#8e7cc3")], "1 head of width 8"),
]
fig, axes = plt.subplots(2, 1, figsize=(4.6, 7.4), layout="constrained")
for ax, (lines, title) in zip(axes, panels, strict=True):
    for i in range(n):
        ax.text(-0.08, -i, labels[i], ha="right", va="center", fontsize=12)
        ax.text(1.08, -i, labels[i], ha="left", va="center", fontsize=12)
        for matrix, colour in lines:
            for j in range(n):
                ax.plot([0, 1], [-i, -j], color=colour, linewidth=9 * matrix[i, j], solid_capstyle="round", alpha=0.85)
    ax.text(-0.08, 0.75, "query", ha="right", fontsize=11)
    ax.text(1.08, 0.75, "key", ha="left", fontsize=11)
    ax.set_title(title, fontsize=12)
    ax.set_xlim(-0.7, 1.7)
    ax.set_ylim(-n + 0.5, 1.2)
    ax.axis("off")
axes[0].text(1.45, -1.0, "head 0:\nthe token\nbefore", color="#2f6fad", fontsize=11, va="center")
axes[0].text(1.45, -3.0, "head 1:\nthe token\nafter", color="#b86a12", fontsize=11, va="center")
axes[1].text(1.45, -2.0, "one row\nfor both", color="#6a55a8", fontsize=11, va="center")
fig.suptitle("After training, on the sequence a c b b a\n(line width = weight; position 0 follows 4)", fontsize=12)
fig.savefig("trained_heads.svg")
