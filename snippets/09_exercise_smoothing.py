import numpy as np

from attn import cross_entropy, smoothed_targets

# The paper's label smoothing and vocabulary size, and the toy vocabulary of this page.
eps_ls, vocab, toy_vocab = 0.1, 37000, 5


def floor_by_formula(size):
    """The entropy of the smoothed target: the lowest cross-entropy any prediction reaches."""
    right, other = 1 - eps_ls + eps_ls / size, eps_ls / size
    return -right * np.log(right) - (size - 1) * other * np.log(other)


def floor_by_loss(size):
    """The loss of the prediction p = q itself (logits log q), by attn.cross_entropy."""
    q = smoothed_targets(np.array([0]), size, eps_ls)  # (1, size)
    return cross_entropy(np.log(q), np.array([0]), eps_ls=eps_ls)


floors = [floor_by_formula(size) for size in (toy_vocab, vocab)]
agree = all(abs(floor_by_formula(size) - floor_by_loss(size)) <= 1e-12 for size in (toy_vocab, vocab))
assert agree, "attn.cross_entropy at p = q must equal the entropy formula"
spread_part = eps_ls * np.log(vocab / eps_ls)  # what the eps_ls spread over vocab tokens contributes, about
right_part = -(1 - eps_ls) * np.log(1 - eps_ls)
approximation = right_part + spread_part  # leaves out terms of order eps / vocab

toy, paper = f"vocab = {toy_vocab}: {floors[0]:.4f}", f"vocab = {vocab}: {floors[1]:.4f}"
print(f"eps_ls = {eps_ls}: lowest loss with {toy}  with {paper}")
print(f"-(1 - eps) log(1 - eps) = {right_part:.4f}  + eps log(vocab / eps) = {spread_part:.4f}  = {approximation:.4f}")
