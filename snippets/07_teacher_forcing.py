# %% layout
import numpy as np

from attn import causal_mask, init_multi_head, multi_head_attention

# The sentence the decoder must produce.
target = ["the", "cat", "sat", "down", "<end>"]
# The same sentence, shifted right by one.
decoder_input = ["<start>"] + target[:-1]
n = len(target)
# (n, n): position i may attend to positions 0..i.
mask = causal_mask(n)

for i in range(n):
    seen = [decoder_input[j] for j in range(n) if mask[i, j]]
    print(f"position {i} sees {' '.join(seen):<24}", end=" ")
    print(f"and is trained to predict {target[i]}")

# Target token i sits in the input at position i + 1,
# which position i may not attend to.
# Where each label (but the last) sits in the input:
label_position = [i + 1 for i in range(n - 1)]
label_seen = [mask[i, label_position[i]] for i in range(n - 1)]
no_position_sees_its_label = not any(label_seen)
assert no_position_sees_its_label, "the mask hides from each position the token it is trained to predict"

# %% numbers
# The same with numbers: change the input at the last position ("down", the token that
# position 3 must predict) and look at what positions 0 to 3 output.
seed, d_model, h = 0, 8, 2
rng = np.random.default_rng(seed)
params = init_multi_head(rng, d_model)
x = rng.standard_normal((n, d_model))  # (n, d_model): the embedded decoder input
x_changed = x.copy()
x_changed[-1] = rng.standard_normal(d_model)  # another token at the last position

masked_before = multi_head_attention(x, x, params, h, mask)  # (n, d_model)
masked_after = multi_head_attention(x_changed, x_changed, params, h, mask)
with_mask = bool(np.array_equal(masked_before[:-1], masked_after[:-1]))
unmasked_before = multi_head_attention(x, x, params, h)
unmasked_after = multi_head_attention(x_changed, x_changed, params, h)
without_mask = bool(np.array_equal(unmasked_before[:-1], unmasked_after[:-1]))
assert with_mask, "with the mask, changing the last input leaves positions 0 to 3 exactly as they were"
assert not without_mask, "without the mask, positions 0 to 3 see the change"
