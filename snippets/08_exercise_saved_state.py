from attn import attention_weights_bytes

# The training step of the section above: 8 heads, 32 sequences, 6 layers, float32.
h, batch, layers, itemsize = 8, 32, 6, 4
lengths = [512, 2048, 8192]

weights = [attention_weights_bytes(n, h, batch, layers, itemsize) for n in lengths]  # P, n x n per head
statistics = [2 * n * h * batch * layers * itemsize for n in lengths]  # m and l: two numbers per query row
ratio = [w // s for w, s in zip(weights, statistics, strict=True)]  # n / 2
weights_gib = [w / 2**30 for w in weights]
statistics_mib = [s / 2**20 for s in statistics]

print(f"n:                          {lengths}")
print(f"stored weights P (GiB):     {weights_gib}")
print(f"row maxima and sums (MiB):  {statistics_mib}")
assert ratio == [n // 2 for n in lengths], "the saved state must shrink by n / 2"
print(f"ratio: {ratio}")
