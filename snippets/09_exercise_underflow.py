import numpy as np

from attn import cross_entropy, log_softmax

# A confident, wrong prediction: the right token (1) is 800 below the favourite.
logits = np.array([[0.0, -800.0]])  # (n, vocab) = (1, 2)
target = np.array([1])

with np.errstate(divide="ignore"):  # log(0) = -inf is the point
    naive_p = np.exp(logits) / np.exp(logits).sum()
    naive_loss = float(-np.log(naive_p[0, 1]))
stable_log_p = log_softmax(logits)  # (1, 2)
stable_loss = cross_entropy(logits, target, eps_ls=0.0)
smallest = float(np.nextafter(0.0, 1.0))  # the smallest positive float64, about 4.9e-324
zero_beyond = float(-np.log(smallest) + np.log(2))  # e^(-x) rounds to 0 once it is below half of that
with np.errstate(under="ignore"):
    threshold_holds = bool(np.exp(-(zero_beyond + 0.01)) == 0.0 and np.exp(-(zero_beyond - 0.01)) > 0.0)

print(f"naive p(right token): {naive_p[0, 1]}  loss: {naive_loss}")
print(f"log_softmax: {stable_log_p[0]}  loss: {stable_loss}")
assert threshold_holds, "exp(-x) must be exactly 0 in float64 just beyond zero_beyond, and positive just before"
print(f"exp(-x) is exactly 0 in float64 for x beyond {zero_beyond:.2f}")
