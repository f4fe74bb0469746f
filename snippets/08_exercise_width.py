from attn.cost import attention_layer_flops, recurrent_flops

d = 1024  # d_model of the paper's big model
n = 4096  # a long document: four times the width


def gru_flops(m, width):
    """A GRU layer over m tokens: three pairs of width x width products per token, 12 m width^2."""
    return 3 * recurrent_flops(m, width)


def lstm_flops(m, width):
    """An LSTM layer over m tokens: four pairs, 16 m width^2."""
    return 4 * recurrent_flops(m, width)


gru_ratio = attention_layer_flops(n, d) / gru_flops(n, d)  # 2/3 + n / (3d)
lstm_ratio = attention_layer_flops(n, d) / lstm_flops(n, d)  # 1/2 + n / (4d)

# The first length at which the attention layer costs at least as much as each.
gru_from = next(m for m in range(1, 8 * d) if attention_layer_flops(m, d) >= gru_flops(m, d))
lstm_from = next(m for m in range(1, 8 * d) if attention_layer_flops(m, d) >= lstm_flops(m, d))

# The base model, at half the width and half the length: the same n / d, the same ratios.
base_d, base_n = d // 2, n // 2
base_gru_ratio = attention_layer_flops(base_n, base_d) / gru_flops(base_n, base_d)
base_lstm_ratio = attention_layer_flops(base_n, base_d) / lstm_flops(base_n, base_d)
assert (base_gru_ratio, base_lstm_ratio) == (gru_ratio, lstm_ratio)

print(f"d = {d}, n = {n}")
print(f"attention layer / GRU layer: {gru_ratio}  / LSTM layer: {lstm_ratio}")
print(f"attention costs at least a GRU layer from n = {gru_from}, an LSTM layer from n = {lstm_from}")
print(f"d = {base_d}, n = {base_n}: {base_gru_ratio}  {base_lstm_ratio}")
