import numpy as np

from attn import load_balancing_loss

tokens, E = 32, 8
probs = np.zeros((tokens, E))
probs[:, :2] = 0.5  # every token: probability 1/2 on experts 0 and 1, none elsewhere
chosen = np.tile([0, 1], (tokens, 1))  # (tokens, 2): top 2 is always experts 0 and 1
pair_loss = load_balancing_loss(probs, chosen)
print(f"balance loss: {pair_loss:.3f}")
