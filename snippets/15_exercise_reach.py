import numpy as np

from attn import receptive_field, sliding_window_mask

layers, w = 6, 512
predicted = layers * (w - 1)  # each layer adds w - 1 positions of reach
# The same rule at a size a boolean matrix can hold: 6 layers, window 9.
small_w, n = 9, 64
reach = receptive_field(sliding_window_mask(n, small_w), layers)  # (n, n)
measured_small = int(n - 1 - np.argmax(reach[-1]))
rule_small = layers * (small_w - 1)
print(f"{layers} layers, window {w}: reach {predicted} positions back")
print(f"checked at window {small_w}: reachability says {measured_small}, the rule {rule_small}")
