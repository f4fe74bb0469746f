# %% lookup
import numpy as np

from attn import Config, embed, init_transformer, positional_encoding

vocab, d_model = 12, 16
config = Config(vocab=vocab, d_model=d_model, h=2, d_ff=32, N=2)
rng = np.random.default_rng(0)
params = init_transformer(rng, config)
E = params["embedding"]  # (vocab, d_model): one row per token, for both embeddings and the output

tokens = np.array([[3, 1, 4, 1, 5]])  # (batch, n): token ids
n = tokens.shape[1]
rows = E[tokens]  # (batch, n, d_model): look up one row per token
scale = np.sqrt(config.d_model)
x = rows * scale + positional_encoding(n, config.d_model)  # (batch, n, d_model)

print("E:", E.shape, " tokens:", tokens.shape, " x:", x.shape)
assert np.allclose(x, embed(tokens, E)), "the lookup by hand must equal attn.embed"

# %% scale
# The scale: E starts with entries of variance 1 / d_model; times sqrt(d_model), variance 1.
expected_std = 1 / scale
E_std = E.std()
scaled_std = (E * scale).std()
pe_positions = 64
pe_std = positional_encoding(pe_positions, config.d_model).std()  # the encodings of 64 positions
outweighed = bool(expected_std < pe_std)  # unscaled, the token's part spreads less than the encodings
assert outweighed, "unscaled, the token part must spread less than the encodings"
print(f"std of E: {E_std:.3f}  of E * sqrt(d_model): {scaled_std:.3f}  of the encodings: {pe_std:.3f}")

# Token 1 appears twice: the same row, made different by the encodings of positions 1 and 3.
rows_equal = np.array_equal(rows[0, 1], rows[0, 3])
now_differ = not np.allclose(x[0, 1], x[0, 3])
assert rows_equal, "positions 1 and 3 hold the same token, so the lookup gives the same row"
assert now_differ, "the positional encodings must make the two vectors differ"
