import numpy as np

from attn import attention_flops, projection_flops

# One self-attention layer of the base model, plus its feed-forward network.
d_model, d_ff = 512, 2048


def layer_parts(n):
    """FLOPs of one layer over n tokens: (score-and-mix, projections, feed-forward)."""
    mix = attention_flops(n, d_model)  # 4 n^2 d_model: h heads of 4 n^2 d_k, h d_k = d_model
    proj = projection_flops(n, d_model)  # 8 n d_model^2: W_q, W_k, W_v, W_o
    ffn = 2 * 2 * n * d_model * d_ff  # x W_1 and hidden W_2: 4 n d_model d_ff
    return mix, proj, ffn


n_max = 20_000
sizes = np.arange(1, n_max + 1)  # every n up to n_max
parts = np.array([layer_parts(int(n)) for n in sizes])  # (len(sizes), 3)
mix, proj, ffn = parts.T
first_over_projections = int(sizes[np.argmax(mix >= proj)])  # first n where mixing >= projections
first_over_rest = int(sizes[np.argmax(mix >= proj + ffn)])  # ... >= projections + FFN
predicted = (2 * d_model, 2 * d_model + d_ff)  # 4 n^2 d = 8 n d^2 and 4 n^2 d = 8 n d^2 + 4 n d d_ff
shown = [512, 1024, 3072, 8192]
share = {n: mix[n - 1] / parts[n - 1].sum() for n in shown}  # score-and-mix share of the layer
mix_share = [float(share[n]) for n in shown]
mix_pct = [round(100 * x) for x in mix_share]  # the same shares, in whole percent

print(f"d_model = {d_model}, d_ff = {d_ff}")
print(f"score-and-mix first reaches the projections at n = {first_over_projections}, predicted {predicted[0]}")
print(f"... and the projections plus the FFN at n = {first_over_rest}, predicted {predicted[1]}")
print(f"score-and-mix share of the layer's FLOPs at n = {shown}:", ", ".join(f"{p}%" for p in mix_pct))
