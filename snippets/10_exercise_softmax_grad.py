import numpy as np

from attn import cross_entropy, cross_entropy_backward, smoothed_targets, softmax

# One position, a vocabulary of 4, the right token is 0, the paper's label smoothing.
z = np.array([[2.0, 1.0, 0.0, -1.0]])  # (n, vocab) = (1, 4) logits
target = np.array([0])  # (n,)
eps_ls = 0.1

p = softmax(z)  # (1, 4)
q = smoothed_targets(target, 4, eps_ls)  # (1, 4)
by_hand = p - q  # the derivation's answer, (1, 4)
library = cross_entropy_backward(z, target, eps_ls=eps_ls)


def loss(z):
    return cross_entropy(z, target, eps_ls=eps_ls)


h = 1e-6
central = np.zeros_like(z)
for k in range(z.shape[-1]):  # central differences, one logit at a time
    step = np.zeros_like(z)
    step[0, k] = h
    central[0, k] = (loss(z + step) - loss(z - step)) / (2 * h)

matches_library = bool(np.allclose(by_hand, library, rtol=0, atol=1e-15))
matches_differences = bool(np.abs(by_hand - central).max() < 1e-8)
sums_to_zero = bool(abs(by_hand.sum()) < 1e-15)
shift = 100.0
shifted_same = bool(np.allclose(cross_entropy_backward(z + shift, target, eps_ls=eps_ls), library, rtol=0, atol=1e-12))
at_q = cross_entropy_backward(np.log(q), target, eps_ls=eps_ls)  # the prediction p = q
zero_at_q = bool(np.abs(at_q).max() < 1e-15)
assert matches_library, "cross_entropy_backward must return p - q (to 1e-15)"
assert matches_differences, "central differences of the loss must give p - q (to 1e-8)"
assert sums_to_zero, "the gradient must sum to 0 (to 1e-15)"
assert shifted_same, "adding the same number to every logit must leave the gradient as it was (to 1e-12)"
assert zero_at_q, "the gradient must vanish at the logits log q (to 1e-15)"

print(f"p     = {p[0].round(4)}")
print(f"q     = {q[0].round(4)}")
print(f"p - q = {by_hand[0].round(4)}")
