from attn.cost import (attention_crossover, attention_flops, attention_layer_flops,
                       projection_flops, recurrent_flops)

d = 512  # the width of the paper's base model
lengths = [32, 128, 512, 2048]  # n: sequence lengths to compare

mix = [attention_flops(n, d) for n in lengths]               # scores and mix: 4 n^2 d
projections = [projection_flops(n, d) for n in lengths]      # W^Q, W^K, W^V, W^O: 8 n d^2
layer = [attention_layer_flops(n, d) for n in lengths]       # the two together
elman = [recurrent_flops(n, d) for n in lengths]             # a whole Elman layer: 4 n d^2
mix_ratio = [m / e for m, e in zip(mix, elman)]              # Table 1's comparison
layer_ratio = [a / e for a, e in zip(layer, elman)]          # whole layer against whole layer
crossover = attention_crossover(d)  # the n at which score-and-mix equals the Elman layer

# The two statements of the text, checked at every n, not only at the four above.
mix_checked_up_to, layer_checked_up_to = 4 * d, 16 * d
mix_cheaper_exactly_below_d = all(
    (attention_flops(n, d) < recurrent_flops(n, d)) == (n < d) for n in range(1, mix_checked_up_to + 1))
layer_dearer_at_every_n = all(
    attention_layer_flops(n, d) > recurrent_flops(n, d) for n in range(1, layer_checked_up_to + 1))

table = [f"{'n':>5} {'score-and-mix':>13} {'projections':>11} {'attention layer':>15}"
         f" {'Elman layer':>11} {'mix/Elman':>9} {'layer/Elman':>11}"]
for row in zip(lengths, mix, projections, layer, elman, mix_ratio, layer_ratio):
    table.append("{:>5} {:>13} {:>11} {:>15} {:>11} {:>9.4f} {:>11.4f}".format(*row))
table.append(f"score-and-mix equals the Elman layer at n = {crossover}")
table.append(f"score-and-mix < Elman exactly when n < {d} for n = 1 to {mix_checked_up_to}: {mix_cheaper_exactly_below_d}")
table.append(f"attention layer > Elman at every n = 1 to {layer_checked_up_to}: {layer_dearer_at_every_n}")
print("\n".join(table))  # one write: a notebook shows it as one output
