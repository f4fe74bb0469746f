import numpy as np

from attn import softmax

words = ["the", "animal", "crossed", "the", "street", "because", "it"]
# Hand-chosen keys with two features: [is a noun, is alive]. (n, d_k)
keys = np.array([[0, 0], [1, 1], [0, 0], [0, 0], [1, 0], [0, 0], [0, 0]])
query_it = np.array([[3, 3]])  # (1, d_k): "it" asks for a noun that is alive
weights = softmax(query_it @ keys.T / np.sqrt(2))  # (1, n), scaled as on page 02

for word, w in zip(words, weights[0], strict=True):
    print(f"{word:>8} {w:.2f}")
