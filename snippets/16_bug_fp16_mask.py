import numpy as np

from attn import softmax

rng = np.random.default_rng(0)
batch, n, d_k = 2, 4, 8
q, k, v = (rng.standard_normal((batch, n, d_k)).astype(np.float16) for _ in range(3))
lengths = np.array([4, 2])
real = np.arange(n) >= n - lengths[:, None]  # (batch, n): left padding
mask = np.tril(np.ones((n, n), dtype=bool)) & real[:, None, :]  # (batch, n, n)
scores = q @ k.transpose(0, 2, 1) / np.float16(np.sqrt(d_k))
with np.errstate(over="ignore", invalid="ignore"):
    scores = np.where(mask, scores, np.float16(-1e9))  # (batch, n, n)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights = weights / weights.sum(-1, keepdims=True)
    out = weights @ v  # (batch, n, d_k)
    second = softmax(out @ out.transpose(0, 2, 1)) @ out  # one more layer reads every output
nan_rows, nan_rows_after = int(np.isnan(out).any(-1).sum()), int(np.isnan(second).any(-1).sum())
print(
    f"smallest masked score: {scores.min()}; outputs with nan: {nan_rows} of {batch * n},"
    f" after one more layer {nan_rows_after}"
)
