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


def train(h):
    """Adam on the squared error, summed over a position's 8 columns and averaged over positions."""
    params = init_multi_head(np.random.default_rng(seed), d_model)  # the same start whatever h is
    state = init_adam(params)
    for _ in range(steps):
        out = multi_head_attention(X, X, params, h)  # (243, n, d_model)
        d_out = 2 * (out - T) / (len(X) * n)  # the loss's gradient with respect to out
        _, _, grads = multi_head_attention_backward(d_out, X, X, params, h)  # section 10 derives it
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
one_before = w_one[:, 0, pos, (pos - 1) % n].mean()  # the single head's mean weight on the token before
one_after = w_one[:, 0, pos, (pos + 1) % n].mean()  # and on the token after
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
print(f"2 heads: smallest weight on that neighbour, over all 243 x 5 positions: {least_two:.3f}")
print(f"1 head: mean weight {one_before:.3f} on the token before, {one_after:.3f} on the token after")
print(f"positions with both neighbours read right: 2 heads {percent_two:.1f}%, 1 head {percent_one:.1f}%")

# %% figure
example = int(np.flatnonzero((tokens == [0, 2, 1, 1, 0]).all(axis=1))[0])  # the sequence a c b b a
labels = [f"{i}: {'abc'[t]}" for i, t in enumerate(tokens[example])]
panels = [
    (w_two[example, before_head], f"2 heads: head {before_head}, the token before"),
    (w_two[example, after_head], f"2 heads: head {after_head}, the token after"),
    (w_one[example, 0], "1 head of width 8: one row for both"),
]
fig, axes = plt.subplots(1, 3, figsize=(12.5, 4.6), layout="constrained")
for ax, (matrix, title) in zip(axes, panels, strict=True):
    image = ax.imshow(matrix, cmap="Oranges", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(matrix):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=9, color="white" if value > 0.6 else "black")
    ax.set_title(title, fontsize=10.5)
    ax.set_xticks(range(n), labels)
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("key (position: token)")
    ax.set_ylabel("query (position: token)")
    ax.tick_params(length=0)
fig.colorbar(image, ax=axes, shrink=0.8, label="attention weight")
fig.suptitle("After training on the task, on the sequence a c b b a (the sequence is a circle)")
fig.savefig("trained_heads.svg")
