from attn.cost import attention_crossover, attention_flops, recurrent_flops

d = 512  # the width of the paper's base model
lengths = [32, 128, 512, 2048]  # n: sequence lengths to compare

attention = [attention_flops(n, d) for n in lengths]
recurrent = [recurrent_flops(n, d) for n in lengths]
ratio = [a / r for a, r in zip(attention, recurrent)]  # attention / recurrent
crossover = attention_crossover(d)  # the n at which the two are equal

print(f"{'n':>6} {'attention FLOPs':>16} {'recurrent FLOPs':>16} {'ratio':>8}")
for n, a, r, q in zip(lengths, attention, recurrent, ratio):
    print(f"{n:>6} {a:>16} {r:>16} {q:>8.4f}")
print("equal at n =", crossover)
