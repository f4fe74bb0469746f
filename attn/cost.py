"""A cost model in plain integer arithmetic: self-attention vs a recurrent layer, and memory.

Vaswani et al. 2017, Table 1 gives self-attention O(n^2 d) per layer and a
recurrent layer O(n d^2). Those two entries do not count the same things,
so this module counts both sides exactly, at d_model = d, and names what
each count covers:

* ``attention_flops``: the part of self-attention that mixes positions, the
  scores Q K^T and the mix weights @ V, n * n * d multiply-adds each:
  4 n^2 d FLOPs. This is what Table 1's O(n^2 d) describes.
* ``projection_flops``: the four per-position projections of an attention
  layer, X W^Q, X W^K, X W^V and the heads' concatenation times W^O, each an
  (n, d) @ (d, d) product: 8 n d^2 FLOPs, for any number of heads h with
  h * d_k = d.
* ``attention_layer_flops``: the two together, 8 n d^2 + 4 n^2 d.
* ``recurrent_flops``: a whole Elman layer, h_t = tanh(x_t W_x + h_{t-1} W_h),
  two d x d matrix-vector products per step: 4 n d^2 FLOPs.

One multiply-add is counted as 2 FLOPs. Not counted, on either side: the
softmax and tanh, biases, and the scaling. So the score-and-mix part costs
less than the Elman layer exactly when n < d (``attention_crossover(d) == d``),
while the whole attention layer costs 2 + n / d times the Elman layer, more
at every n.

Taught on: docs/08-cost.md
"""

from ._validate import check_int


def attention_flops(n, d):
    """FLOPs of self-attention's two n x n matrix products: 4 * n^2 * d.

    Q K^T and weights @ V, n * n * d multiply-adds each, 2 FLOPs per
    multiply-add (see the module docstring for what is left out). -> int

    >>> attention_flops(n=10, d=64)  # 4 * 10^2 * 64
    25600

    Taught on: docs/08-cost.md
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

    Taught on: docs/08-cost.md
    """
    n, d = check_int(n, "n", 0), check_int(d, "d", 0)
    return 2 * 2 * n * d * d


def attention_crossover(d):
    """The sequence length n at which attention_flops(n, d) == recurrent_flops(n, d).

    4 n^2 d = 4 n d^2  <=>  n = d. Below it attention is cheaper, above it
    the recurrent layer is. -> int (= d)

    >>> attention_crossover(512)
    512

    Taught on: docs/08-cost.md
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

    Taught on: docs/08-cost.md
    """
    n = check_int(n, "n", 0)
    return n * n * check_int(itemsize, "itemsize", 0)


def score_block_bytes(block_size, key_block_size, itemsize=8):
    """Bytes of the one score block blockwise attention keeps: block_size * key_block_size * itemsize.

    No n in it: once n is past the block's sizes, blockwise memory is O(n * block), not O(n^2).
    -> int

    >>> score_block_bytes(256, 2048) / 2**20  # MiB of one float64 (256, 2048) block
    4.0

    Taught on: docs/implementation-notes.md
    """
    block_size, key_block_size = check_int(block_size, "block_size", 0), check_int(key_block_size, "key_block_size", 0)
    return block_size * key_block_size * check_int(itemsize, "itemsize", 0)


def projection_flops(n, d):
    """FLOPs of the four per-position projections of a self-attention layer: 8 * n * d^2.

    X W^Q, X W^K, X W^V and Concat(heads) W^O, each an (n, d) @ (d, d)
    product (n * d * d multiply-adds), 2 FLOPs per multiply-add. The same
    for any number of heads h with h * d_k = d: the heads' projections sit
    side by side in one (d, d) matrix. -> int

    >>> projection_flops(n=10, d=64)  # 8 * 10 * 64^2
    327680

    Taught on: docs/08-cost.md
    """
    n, d = check_int(n, "n", 0), check_int(d, "d", 0)
    return 4 * 2 * n * d * d


def attention_layer_flops(n, d):
    """FLOPs of a whole self-attention layer: projections plus score-and-mix.

    projection_flops(n, d) + attention_flops(n, d) = 8 n d^2 + 4 n^2 d, which
    exceeds recurrent_flops(n, d) = 4 n d^2 at every n >= 1. -> int

    >>> attention_layer_flops(n=10, d=64) / recurrent_flops(n=10, d=64)  # 2 + n / d
    2.15625

    Taught on: docs/08-cost.md
    """
    return projection_flops(n, d) + attention_flops(n, d)


def attention_weights_bytes(n, h, batch, layers, itemsize=8):
    """Bytes of the n x n attention weights of h heads, ``batch`` sequences and ``layers`` layers.

    h * batch * layers * n * n * itemsize: one score_matrix_bytes(n, itemsize)
    per head, sequence and layer. This is what a training step keeps for the
    backward pass when every softmax's weights P are stored (dL/dV = P^T dL/dout
    needs them). itemsize 8 for float64, 4 for float32, 2 for 16-bit floats.
    -> int

    >>> attention_weights_bytes(512, h=8, batch=32, layers=6, itemsize=4) / 2**30  # GiB
    1.5

    Taught on: docs/08-cost.md
    """
    heads = check_int(h, "h", 0) * check_int(batch, "batch", 0) * check_int(layers, "layers", 0)
    return heads * score_matrix_bytes(n, itemsize)
