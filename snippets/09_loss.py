# %% smoothing
import numpy as np

from attn import cross_entropy, log_softmax, smoothed_targets

# Label smoothing: the target for token 2 in a vocabulary of 5, with eps_ls = 0.1.
vocab, eps_ls, pad = 5, 0.1, 0
q_one = smoothed_targets(np.array([2]), vocab, eps_ls)[0]  # (vocab,)
print("smoothed target for token 2:", q_one.round(3))

# %% padding
# One sentence of 4 positions; the last two targets are padding (token 0).
rng = np.random.default_rng(1)
logits = rng.standard_normal((1, 4, vocab)) * 2  # (batch, n, vocab)
targets = np.array([[2, 4, 0, 0]])  # (batch, n)
q = smoothed_targets(targets, vocab, eps_ls)  # (batch, n, vocab)
per_position = -(q * log_softmax(logits)).sum(axis=-1)  # (batch, n)
real = targets != pad  # (batch, n)
by_hand = per_position[real].mean()
loss = cross_entropy(logits, targets, eps_ls, pad)
print("loss per position:", per_position.round(3), " real:", real[0].astype(int))
print(f"mean over the real positions: {by_hand:.4f}  cross_entropy: {loss:.4f}")

changed = logits.copy()
changed[~real] = 100.0  # anything at all where the target is padding
unchanged = cross_entropy(changed, targets, eps_ls, pad) == loss
assert unchanged, "padding logits must not move the loss"

# %% floor
# The lowest loss smoothing allows: predict q itself. It is q's entropy, not 0.
floor = -(q_one * np.log(q_one)).sum()
best_p = 1 - eps_ls + eps_ls / vocab
print(f"lowest possible loss: {floor:.4f}, reached when p(right token) = {best_p:.2f}")
loss_at_q = cross_entropy(np.log(q_one)[None], np.array([2]), eps_ls)
assert abs(loss_at_q - floor) <= 1e-12, "the loss of the prediction p = q must be the entropy of q"
