"""A cost model in plain integer arithmetic: self-attention vs a recurrent layer.

Vaswani et al. 2017, Table 1: per layer, self-attention costs O(n^2 d) and
a recurrent layer O(n d^2), so attention is cheaper when n < d. To make that
statement hold *exactly*, not just up to constants, both sides count the same
thing, the matrix products that mix information between positions, at
d_model = d:

* self-attention: the scores Q K^T (n * n * d multiply-adds) and the mixing
  weights @ V (n * n * d multiply-adds): 2 n^2 d multiply-adds;
* recurrent (Elman) layer, h_t = tanh(W_x x_t + W_h h_{t-1}): per step two
  d x d matrix-vector products (n * d * d multiply-adds each over the
  sequence): 2 n d^2 multiply-adds.

One multiply-add is counted as 2 FLOPs. Not counted, on either side: the
Q/K/V/output projections (position-wise, O(n d^2), present in both
architectures in some form), the softmax and tanh, biases, and the scaling.
With these definitions attention_flops(n, d) < recurrent_flops(n, d) exactly
when n < d, and they are equal at n = d (``attention_crossover(d) == d``).

Taught on: docs/01-what-it-replaced.md
"""

from ._validate import check_int


def attention_flops(n, d):
    """FLOPs of self-attention's two n x n matrix products: 4 * n^2 * d.

    Q K^T and weights @ V, n * n * d multiply-adds each, 2 FLOPs per
    multiply-add (see the module docstring for what is left out). -> int

    >>> attention_flops(n=10, d=64)  # 4 * 10^2 * 64
    25600

    Taught on: docs/01-what-it-replaced.md
    """
    n, d = check_int(n, "n", 0), check_int(d, "d", 0)
    return 2 * 2 * n * n * d


def recurrent_flops(n, d):
    """FLOPs of a recurrent layer over n steps: 4 * n * d^2.

    Each step h_t = tanh(W_x x_t + W_h h_{t-1}) does two d x d
    matrix-vector products (2 * d * d multiply-adds), 2 FLOPs per
    multiply-add. -> int

    >>> recurrent_flops(n=10, d=64)  # 4 * 10 * 64^2
    163840

    Taught on: docs/01-what-it-replaced.md
    """
    n, d = check_int(n, "n", 0), check_int(d, "d", 0)
    return 2 * 2 * n * d * d


def attention_crossover(d):
    """The sequence length n at which attention_flops(n, d) == recurrent_flops(n, d).

    4 n^2 d = 4 n d^2  <=>  n = d. Below it attention is cheaper, above it
    the recurrent layer is. -> int (= d)

    >>> attention_crossover(512)
    512

    Taught on: docs/01-what-it-replaced.md
    """
    return check_int(d, "d", 0)


def sequential_steps(n, kind):
    """Operations that must run one after another (Table 1, "Sequential Operations").

    kind "attention" -> 1 (every position at once), "recurrent" -> n. -> int

    >>> sequential_steps(100, "attention"), sequential_steps(100, "recurrent")
    (1, 100)

    Taught on: docs/01-what-it-replaced.md
    """
    n = check_int(n, "n", 0)
    if not isinstance(kind, str):
        raise TypeError(f"kind must be a str, 'attention' or 'recurrent', got {type(kind).__name__}")
    if kind == "attention":
        return 1
    if kind == "recurrent":
        return n
    raise ValueError(f"kind must be 'attention' or 'recurrent', got {kind!r}")


def score_matrix_bytes(n, itemsize=8):
    """Bytes of one materialised n x n score (or weight) matrix: n * n * itemsize.

    itemsize 8 for float64, 4 for float32. -> int

    >>> score_matrix_bytes(4096) / 2**20  # MiB of one float64 (n, n) matrix
    128.0

    Taught on: docs/07-block-masking-cost.md
    """
    n = check_int(n, "n", 0)
    return n * n * check_int(itemsize, "itemsize", 0)


def score_block_bytes(block_size, key_block_size, itemsize=8):
    """Bytes of the one score block blockwise attention keeps: block_size * key_block_size * itemsize.

    Independent of n: this is why blockwise memory is O(n * block), not O(n^2).
    -> int

    >>> score_block_bytes(256, 2048) / 2**20  # MiB of one float64 (256, 2048) block
    4.0

    Taught on: docs/07-block-masking-cost.md
    """
    block_size, key_block_size = check_int(block_size, "block_size", 0), check_int(key_block_size, "key_block_size", 0)
    return block_size * key_block_size * check_int(itemsize, "itemsize", 0)
