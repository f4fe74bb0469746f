import numpy as np

from attn import apply_rope, positional_encoding

base = 10000.0


def turns(d, p):
    """For each sin/cos pair of a width-d encoding: the turns its angle has made at position p."""
    omega = base ** (-np.arange(0, d, 2) / d)  # (d / 2,): radians per position
    return p * omega / (2 * np.pi)  # (d / 2,)


# The sinusoidal encoding of the base model, trained on sequences of L tokens.
d_model, L = 512, 512
trained = turns(d_model, L - 1)  # (d_model / 2,): the last training position
n_pairs, completed = trained.size, int((trained >= 1).sum())
# Pairs whose angle at position L lies past the whole arc that positions 0 .. L - 1 swept.
beyond = int((turns(d_model, L) < 1).sum())
slowest = trained[-1]  # the fraction of a turn the slowest pair reaches by position L - 1
slowest_pct = 100 * slowest  # the same, as a percentage of one full turn

# RoPE in one head of width 64: the angle of a pair depends on the offset, at most L - 1 in training.
d_k = 64
trained_rope = turns(d_k, L - 1)  # (d_k / 2,): at the largest training offset
completed_rope, beyond_rope = int((trained_rope >= 1).sum()), int((turns(d_k, L) < 1).sum())

# Both formulas still give numbers far beyond L: bounded, finite, defined at every position.
far = 10 * L
pe_far = positional_encoding(far + 1, d_model)[far]  # (d_model,)
rope_far = apply_rope(np.ones((1, d_k)), positions=[far])  # (1, d_k)
defined = bool(np.isfinite(pe_far).all() and np.abs(pe_far).max() <= 1 and np.isfinite(rope_far).all())

print(f"sinusoids, d_model = {d_model}, trained on L = {L}: {completed} of {n_pairs} pairs turn fully")
print(f"  at position {L}, {beyond} pairs are past every angle of training")
print(f"  the slowest pair turns {slowest_pct:.2f}% of the way round by position {L - 1}")
print(f"RoPE, d_k = {d_k}, offsets up to {L - 1}: {completed_rope} of {trained_rope.size} pairs turn fully,")
print(f"  at offset {L}, {beyond_rope} pairs are past every angle of training")
assert defined, f"both formulas must be defined, finite and bounded at position {far}"
