import math

from attn import token_flops

d_model, d_ff, h = 512, 2048, 8  # the paper's base model (Vaswani et al. 2017)
d_k = d_model // h
sizes = [16, 128, 1024, 8192]


def matmul_flops(a, b):
    """2 FLOPs per multiply-add of a batched product of shapes a (..., m, k) and b (..., k, p)."""
    return 2 * math.prod(a[:-2]) * a[-2] * a[-1] * b[-1]


def counted(n, rows):
    """The products one layer does when `rows` positions go through it and read n keys."""
    d = d_model
    return (4 * matmul_flops((rows, d), (d, d))                  # x W_q, x W_k, x W_v, heads W_o
            + matmul_flops((h, rows, d_k), (h, d_k, n))          # Q K^T, every head
            + matmul_flops((h, rows, n), (h, n, d_k))            # weights @ V
            + matmul_flops((rows, d), (d, d_ff))                 # x W_1
            + matmul_flops((rows, d_ff), (d_ff, d)))             # hidden W_2


cached = [token_flops(n, d_model, d_ff, cached=True) for n in sizes]
recomputed = [token_flops(n, d_model, d_ff, cached=False) for n in sizes]
ratio = [r // c for r, c in zip(recomputed, cached)]  # exact: the remainders are 0
exact = all(r == n * c for n, c, r in zip(sizes, cached, recomputed))
mixing_share = [4 * n * d_model / c for n, c in zip(sizes, cached)]  # q against n keys, then n values
agrees = all(token_flops(n, d_model, d_ff, True) == counted(n, 1)
             and token_flops(n, d_model, d_ff, False) == counted(n, n) for n in sizes)

# Generating a whole sequence: the sum over every position.
n_total = 1024
total_cached = sum(token_flops(n, d_model, d_ff, True) for n in range(1, n_total + 1))
total_recomputed = sum(token_flops(n, d_model, d_ff, False) for n in range(1, n_total + 1))
total_ratio = total_recomputed / total_cached

print("FLOPs per layer for the token at position n - 1")
print(f"{'n':>6} {'with cache':>12} {'(reading it)':>13} {'without':>16} {'ratio':>6}")
for n, c, share, r, q in zip(sizes, cached, mixing_share, recomputed, ratio):
    print(f"{n:>6} {c:>12} {share:>12.0%} {r:>16} {q:>6}")
print(f"without = n x with, at every n: {exact}")
print(f"same as counting each matrix product: {agrees}")
print(f"all {n_total} tokens, per layer: {total_cached:.3e} with the cache, "
      f"{total_recomputed:.3e} without ({total_ratio:.0f}x)")
