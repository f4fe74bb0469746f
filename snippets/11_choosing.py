# %% greedy
import numpy as np

from attn import top_k, top_p, with_temperature

# A made-up distribution for the word after "the cat sat on the".
words = ["mat", "sofa", "dog", "moon", "."]
probs = np.array([0.5, 0.2, 0.15, 0.1, 0.05])  # (vocab,)
# Any logits with these differences give the same softmax.
logits = np.log(probs)  # (vocab,)
greedy = words[int(probs.argmax())]
print("greedy picks:", greedy)

# %% temperature
# softmax(logits / 0.5)
sharp = with_temperature(logits, 0.5)  # (vocab,)
flat = with_temperature(logits, 2.0)  # (vocab,)
print("T = 0.5:", sharp.round(3))
print("T = 2:  ", flat.round(3))

# %% truncation
# Zero outside the two most probable, renormalised.
kept_k = top_k(probs, 2)  # (vocab,)
# The fewest top words whose mass reaches 0.8.
kept_p = top_p(probs, 0.8)  # (vocab,)
top_two_mass = np.sort(probs)[-2:].sum()
print("top-k, k = 2:  ", kept_k.round(3))
print("top-p, p = 0.8:", kept_p.round(3))
print(f"(the top two hold only {top_two_mass:.2f})")

# %% draws
rng = np.random.default_rng(0)
# T = 1, no truncation.
draws = [words[rng.choice(len(words), p=probs)] for _ in range(10)]
print("ten draws:", " ".join(draws))
