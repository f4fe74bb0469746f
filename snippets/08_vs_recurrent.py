from attn.cost import attention_crossover, attention_flops, attention_layer_flops, recurrent_flops

d = 512  # the width of the paper's base model
lengths = [32, 128, 512, 2048]  # n: sequence lengths to compare

# Whole layers, counted the same way: a multiply-add is 2 FLOPs; biases and nonlinearities left out.
# An Elman layer makes two d x d matrix-vector products per token (x_t W_x, h_{t-1} W_h): 4 n d^2.
# A GRU has three such pairs (update gate, reset gate, candidate state), an LSTM four (input,
# forget and output gates, candidate cell).
gates = {"Elman": 1, "GRU": 3, "LSTM": 4}
layer = [attention_layer_flops(n, d) for n in lengths]  # projections 8 n d^2 + score-and-mix 4 n^2 d
rnn = {kind: [g * recurrent_flops(n, d) for n in lengths] for kind, g in gates.items()}
gru_ratio = [a / r for a, r in zip(layer, rnn["GRU"], strict=True)]
lstm_ratio = [a / r for a, r in zip(layer, rnn["LSTM"], strict=True)]
layer_ratio = [a / r for a, r in zip(layer, rnn["Elman"], strict=True)]  # against a plain Elman layer
mix_ratio = [attention_flops(n, d) / r for n, r in zip(lengths, rnn["Elman"], strict=True)]  # Table 1's two entries
crossover = attention_crossover(d)  # the n at which score-and-mix equals the Elman layer


def cheaper(n, g):
    """Is a whole attention layer cheaper than a recurrent layer with g gate pairs, at length n?"""
    return attention_layer_flops(n, d) < g * recurrent_flops(n, d)


# The crossovers the algebra gives, against a direct count at every n up to 16 d.
checked_up_to = 16 * d  # n = 1 .. 8192
ns = range(1, checked_up_to + 1)
assert all(cheaper(n, gates["GRU"]) == (n < d) for n in ns)  # cheaper than a GRU exactly when n < d
assert all(cheaper(n, gates["LSTM"]) == (n < 2 * d) for n in ns)  # than an LSTM when n < 2d
assert not any(cheaper(n, gates["Elman"]) for n in ns)  # never cheaper than an Elman layer
mix_cheaper_exactly_below_d = all((attention_flops(n, d) < recurrent_flops(n, d)) == (n < d) for n in ns)
assert mix_cheaper_exactly_below_d  # Table 1's pair: score-and-mix against an Elman layer
gru_crossover = next(n for n in ns if not cheaper(n, gates["GRU"]))  # the first n where attention is no cheaper
lstm_crossover = next(n for n in ns if not cheaper(n, gates["LSTM"]))

print(f"{'n':>5} {'attention layer':>15} {'GRU layer':>11} {'LSTM layer':>11} {'attn/GRU':>8} {'attn/LSTM':>9}")
for row in zip(lengths, layer, rnn["GRU"], rnn["LSTM"], gru_ratio, lstm_ratio, strict=True):
    print("{:>5} {:>15} {:>11} {:>11} {:>8.3f} {:>9.3f}".format(*row))
print(f"no longer cheaper than a GRU from n = {gru_crossover}, than an LSTM from n = {lstm_crossover}")
