import math

from attn import Config, parameter_counts

# The same two models as 09_parameters.py, and their gaps to Table 3.
base = Config(vocab=37000, d_model=512, h=8, d_ff=2048, N=6)
big = Config(vocab=37000, d_model=1024, h=16, d_ff=4096, N=6)
base_counts = parameter_counts(base)
base_shortfall, base_layer_norm = 65_000_000 - base_counts["total"], base_counts["layer_norm"]

# Two things a count could add: a bias on each of W_q, W_k, W_v, W_o in all 3N attentions,
# or separate matrices for the target embedding and the output projection.
biases = [3 * c.N * 4 * c.d_model for c in (base, big)]
unshared = [2 * c.vocab * c.d_model for c in (base, big)]
print(f"{'+ biases':14}{biases[0]:>13,}{biases[1]:>13,}")
print(f"{'+ 2 matrices':14}{unshared[0]:>13,}{unshared[1]:>13,}")
bias_percent = 100 * biases[0] / base_shortfall
layer_norm_percent = 100 * base_layer_norm / base_shortfall

# Every Table 3 row that lists a count and keeps d_k = d_model / h:
#       name               N  d_model  h  d_ff  millions
rows = {
    "base": (6, 512, 8, 2048, 65),
    "N = 2": (2, 512, 8, 2048, 36),
    "N = 4": (4, 512, 8, 2048, 50),
    "N = 8": (8, 512, 8, 2048, 80),
    "d_model = 256": (6, 256, 8, 2048, 28),
    "d_model = 1024": (6, 1024, 8, 2048, 168),
    "d_ff = 1024": (6, 512, 8, 1024, 53),
    "d_ff = 4096": (6, 512, 8, 4096, 90),
    "big": (6, 1024, 16, 4096, 213),
}
print("vocabulary sizes vocab for which our count rounds to the row's millions:")
low, high = {}, {}
for name, (N, d_model, h, d_ff, millions) in rows.items():
    sizes = Config(vocab=1, d_model=d_model, h=h, d_ff=d_ff, N=N)
    layers = parameter_counts(sizes)["total"] - d_model  # everything but the embedding
    # the smallest vocab whose count reaches millions - 0.5, the largest whose count stays below + 0.5
    low[name] = math.ceil(((millions - 0.5) * 1e6 - layers) / d_model)
    high[name] = math.ceil(((millions + 0.5) * 1e6 - layers) / d_model) - 1
    print(f"  {name:15} {millions:>4}M  vocab from {low[name]:,} to {high[name]:,}")
other_rows = len(rows) - 1
common_low = max(v for name, v in low.items() if name != "big")
common_high = min(v for name, v in high.items() if name != "big")
big_low, big_high = low["big"], high["big"]
overlap = big_high >= common_low and big_low <= common_high
print(f"one vocab fits every row but big: {common_low:,} to {common_high:,}")
assert not overlap, "the base rows and big must need different vocabularies"
assert big_high < common_low, "big needs the smaller vocabulary"
