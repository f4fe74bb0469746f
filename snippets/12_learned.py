import numpy as np

from attn import init_learned_positions, learned_positions

seed = 0
n_max, d_model = 16, 8  # a table trained for sequences of up to 16 tokens
table = init_learned_positions(np.random.default_rng(seed), n_max, d_model)  # (n_max, d_model)
n_weights = table.size  # learned like any other weight

print(f"table: {table.shape} = {n_weights} learned numbers")
print(f"positions for 10 tokens: {learned_positions(table, 10).shape}")
n_asked = n_max + 1  # one token more than the table was built for
try:
    learned_positions(table, n_asked)
except ValueError as error:
    print(f"positions for {n_asked} tokens: ValueError: {error}")
