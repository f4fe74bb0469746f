from attn.cost import attention_weights_bytes

h, layers, d_model = 8, 6, 512  # the base model's heads, encoder layers and width
batch = 32  # sequences per training step: our choice for the example
itemsize = 4  # float32
GiB = 2**30
lengths = [512, 2048, 8192]

# One n x n weight matrix per head, sequence and layer, kept for the backward pass.
weights_gib = [attention_weights_bytes(n, h, batch, layers, itemsize) / GiB for n in lengths]
# For comparison, the layers' outputs: one (n, d_model) array per sequence and layer.
outputs_gib = [batch * layers * n * d_model * itemsize / GiB for n in lengths]
weights_over_outputs = [w / o for w, o in zip(weights_gib, outputs_gib, strict=True)]  # h * n / d_model

print(f"{h} heads x {batch} sequences x {layers} layers, float32")
print(f"{'n':>5} {'attention weights (GiB)':>24} {'layer outputs (GiB)':>20} {'ratio':>6}")
for n, w, o, r in zip(lengths, weights_gib, outputs_gib, weights_over_outputs, strict=True):
    print(f"{n:>5} {w:>24.1f} {o:>20.3f} {r:>6.0f}")
