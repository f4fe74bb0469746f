import numpy as np

from attn import softmax

words = "the animal crossed the street because it".split()
# Hand-chosen keys (n, d_k): [is a noun, is alive].
keys = np.array(
    [
        [0, 0],  # the
        [1, 1],  # animal
        [0, 0],  # crossed
        [0, 0],  # the
        [1, 0],  # street
        [0, 0],  # because
        [0, 0],  # it
    ]
)
# "it" asks for a noun that is alive.
query_it = np.array([[3, 3]])  # (1, d_k)
# Scaled as on page 02.
weights = softmax(query_it @ keys.T / np.sqrt(2))  # (1, n)

for word, w in zip(words, weights[0], strict=True):
    print(f"{word:>8} {w:.2f}")
