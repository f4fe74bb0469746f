import numpy as np

# BERT's masked-LM corruption (Devlin et al. 2019, section 3.1): choose 15% of the positions;
# of those, 80% become [MASK], 10% a random token, 10% stay as they are. The loss is taken
# only at the chosen positions.
rng = np.random.default_rng(0)
n, vocab, MASK = 100_000, 30_000, 0
tokens = rng.integers(1, vocab, n)
chosen = rng.random(n) < 0.15
roll = rng.random(n)
to_mask, to_random = chosen & (roll < 0.8), chosen & (roll >= 0.8) & (roll < 0.9)
corrupted = tokens.copy()
corrupted[to_mask] = MASK
corrupted[to_random] = rng.integers(1, vocab, int(to_random.sum()))
visible_share = float((corrupted[chosen] == tokens[chosen]).mean())  # chosen, yet unchanged
share_pct, mask_pct = 100 * float(chosen.mean()), 100 * float(to_mask.sum() / chosen.sum())
print(f"positions with a loss: {share_pct:.1f}%; of them [MASK] {mask_pct:.1f}%, unchanged {100 * visible_share:.1f}%")
