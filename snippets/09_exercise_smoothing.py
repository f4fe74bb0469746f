import numpy as np

from attn import cross_entropy, smoothed_targets

# The paper's label smoothing and vocabulary size, and the toy vocabulary of this page.
eps_ls, vocab, toy_vocab = 0.1, 37000, 5


def floor_by_formula(V):
    """The entropy of the smoothed target: the lowest cross-entropy any prediction reaches."""
    right, other = 1 - eps_ls + eps_ls / V, eps_ls / V
    return -right * np.log(right) - (V - 1) * other * np.log(other)


def floor_by_loss(V):
    """The loss of the prediction p = q itself (logits log q), by attn.cross_entropy."""
    q = smoothed_targets(np.array([0]), V, eps_ls)  # (1, V)
    return cross_entropy(np.log(q), np.array([0]), eps_ls=eps_ls)


floors = [floor_by_formula(V) for V in (toy_vocab, vocab)]
agree = all(abs(floor_by_formula(V) - floor_by_loss(V)) <= 1e-12 for V in (toy_vocab, vocab))
assert agree
spread_part = eps_ls * np.log(vocab / eps_ls)  # what the eps_ls spread over V tokens contributes, about
right_part = -(1 - eps_ls) * np.log(1 - eps_ls)
approximation = right_part + spread_part  # leaves out terms of order eps / V

print(f"eps_ls = {eps_ls}: lowest loss with V = {toy_vocab}: {floors[0]:.4f}  with V = {vocab}: {floors[1]:.4f}")
print(f"attn.cross_entropy at p = q agrees: {agree}")
print(f"-(1 - eps) log(1 - eps) = {right_part:.4f}  + eps log(V / eps) = {spread_part:.4f}  = {approximation:.4f}")
