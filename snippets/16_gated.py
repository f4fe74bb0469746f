from attn.cost import attention_layer_flops, recurrent_flops

d = 512  # the width of the paper's base model
lengths = [128, 512, 1024, 2048]


def gated_flops(n, d, gates):
    """FLOPs of a gated recurrent layer over n steps: each gate does W_x x_t + W_h h_{t-1}.

    gates: 3 for a GRU, 4 for an LSTM; per step 2 d x d products per gate, 2 FLOPs per
    multiply-add, the same count as recurrent_flops (an Elman layer is one gate). -> int
    """
    return gates * recurrent_flops(n, d)


gru = [gated_flops(n, d, 3) for n in lengths]  # 12 n d^2
lstm = [gated_flops(n, d, 4) for n in lengths]  # 16 n d^2
layer = [attention_layer_flops(n, d) for n in lengths]  # 8 n d^2 + 4 n^2 d
gru_ratio = [a / g for a, g in zip(layer, gru, strict=True)]
lstm_ratio = [a / g for a, g in zip(layer, lstm, strict=True)]

checked_up_to = 8 * d
for n in range(1, checked_up_to + 1):
    assert (attention_layer_flops(n, d) < gated_flops(n, d, 3)) == (n < d), n
    assert (attention_layer_flops(n, d) < gated_flops(n, d, 4)) == (n < 2 * d), n

print(f"d = {d}; whole attention layer against a whole gated recurrent layer")
print(f"{'n':>5} {'attention/GRU':>13} {'attention/LSTM':>14}")
for n, g, s in zip(lengths, gru_ratio, lstm_ratio, strict=True):
    print(f"{n:>5} {g:>13.3f} {s:>14.3f}")
print(
    f"cheaper than a GRU exactly when n < {d}, than an LSTM exactly when n < {2 * d}"
    f" (every n from 1 to {checked_up_to})"
)
