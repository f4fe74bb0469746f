# %% table
import math

from attn import token_flops

# The paper's base model (Vaswani et al. 2017).
d_model, d_ff, h = 512, 2048, 8
d_k = d_model // h
sizes = [16, 128, 1024, 8192]

cached = [token_flops(n, d_model, d_ff, cached=True) for n in sizes]
recomputed = [token_flops(n, d_model, d_ff, cached=False) for n in sizes]
# Exact: the remainders are 0.
ratio = [r // c for r, c in zip(recomputed, cached, strict=True)]
assert all(r == n * c for n, c, r in zip(sizes, cached, recomputed, strict=True)), "without = n x with"
# q against n keys and values:
mixing_share = [4 * n * d_model / c for n, c in zip(sizes, cached, strict=True)]
mixing_pct = [round(100 * share) for share in mixing_share]  # in percent of the cached step's FLOPs

print("MFLOPs of one step, n tokens in context:")
print(f"{'n':>6}{'cached':>8}{'reading':>9}{'uncached':>10}{'ratio':>7}")
for n, c, pct, r, q in zip(sizes, cached, mixing_pct, recomputed, ratio, strict=True):
    print(f"{n:>6}{c / 1e6:>8.2f}{pct:>8}%{r / 1e6:>10.2f}{q:>7}")

# Generating a whole sequence: the sum over every position.
n_total = 1024
positions = range(1, n_total + 1)
total_without = sum(token_flops(n, d_model, d_ff, False) for n in positions)
total_with = sum(token_flops(n, d_model, d_ff, True) for n in positions)
total_ratio = total_without / total_with
# The same sum if the uncached pass skipped the masked scores:
# row i meets only i + 1 keys, so its query-key and weight-value
# products shrink from 4 n^2 d_model to 2 n (n + 1) d_model.
masked_saving = sum(4 * n * n * d_model - 2 * n * (n + 1) * d_model for n in positions)
masked_ratio = (total_without - masked_saving) / total_with
print(f"all {n_total} tokens: {total_ratio:.0f}x fewer with the cache")


# %% check
def matmul_flops(a, b):
    """2 FLOPs per multiply-add of a batched product of shapes a (..., m, k) and b (..., k, p)."""
    return 2 * math.prod(a[:-2]) * a[-2] * a[-1] * b[-1]


def counted(n, rows):
    """The products one layer does when `rows` positions go through it and read n keys."""
    projections = 4 * matmul_flops((rows, d_model), (d_model, d_model))  # x W_q, W_k, W_v, W_o
    mixing = 2 * matmul_flops((h, rows, d_k), (h, d_k, n))  # Q K^T; weights @ V
    feed_forward = 2 * matmul_flops((rows, d_model), (d_model, d_ff))  # x W_1; hidden W_2
    return projections + mixing + feed_forward


for n in sizes:
    assert token_flops(n, d_model, d_ff, True) == counted(n, 1), "token_flops = every product, with the cache"
    assert token_flops(n, d_model, d_ff, False) == counted(n, n), "token_flops = every product, without"
for n in sizes[:2]:
    row_by_row = sum(2 * matmul_flops((h, 1, d_k), (h, d_k, i + 1)) for i in range(n))  # row i meets i + 1 keys
    assert row_by_row == 2 * n * (n + 1) * d_model, "with the mask skipped: 2 n (n + 1) d_model"
