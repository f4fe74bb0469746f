from itertools import pairwise

from attn.cost import attention_flops, score_matrix_bytes

d = 64  # width of one head: d_k = d_v = 64
sizes = [128, 256, 512, 1024, 2048, 4096]
MiB = 2**20

score_bytes = [score_matrix_bytes(n) for n in sizes]  # one (n, n) float64
flops = [attention_flops(n, d) for n in sizes]  # QK^T and weights @ V
bytes_growth = [b / a for a, b in pairwise(score_bytes)]
flops_growth = [b / a for a, b in pairwise(flops)]

score_mib_4096 = score_bytes[-1] / MiB
score_mib_4096_float32 = score_matrix_bytes(4096, itemsize=4) / MiB
# Double d instead of n:
d_doubling_growth = attention_flops(1024, 2 * d) / attention_flops(1024, d)

print(f"{'n':>5} {'n x n bytes':>12} {'MiB':>7} {'FLOPs':>12}")
for n, nbytes, f in zip(sizes, score_bytes, flops, strict=True):
    print(f"{n:>5} {nbytes:>12} {nbytes / MiB:>7.2f} {f:>12}")
print("growth per doubling of n, bytes:", bytes_growth)
print("growth per doubling of n, FLOPs:", flops_growth)
print("n = 4096 in float32:", score_mib_4096_float32, "MiB")
print("FLOPs growth when d doubles at n = 1024:", d_doubling_growth)
