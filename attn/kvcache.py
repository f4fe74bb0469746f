"""The key-value cache: generating token by token without recomputing the past.

Under a causal mask, the keys and values a layer computes for positions
0..t-1 depend only on tokens 0..t-1, so they are the same at every later step
of generation. A decoder can therefore keep them (the KV cache) and, for each
new token, compute one query, one key and one value per head and layer, and
attend from that one query over the stored keys. The result equals a full
causal pass over the whole prefix, row for row, up to rounding.

Cost, counted in FLOPs of matrix products (2 per multiply-add, as in
:mod:`attn.cost`; softmax, layer norm, embeddings and the vocabulary
projection left out): per layer, the token at position n - 1 costs

    with the cache:     8 d^2 + 4 n d + 4 d d_ff       (one row of everything)
    without the cache:  8 n d^2 + 4 n^2 d + 4 n d d_ff  (the whole prefix again)

with d = d_model. The cache itself holds, for every one of the N layers and n
positions, a key and a value of width d_model (multi-head attention): 2 N n
d_model numbers.

Taught on: docs/11-generating-text.md
"""

import numpy as np

from ._validate import check_int
from .grouped import attend_in_groups
from .multihead import merge_heads, split_heads


class KVCache:
    """The keys and values one attention layer has computed so far, in preallocated buffers.

    KVCache(heads, d_k, capacity, d_v=None, dtype=np.float64) allocates
    ``k`` (heads, capacity, d_k) and ``v`` (heads, capacity, d_v) (d_v defaults
    to d_k); ``length`` positions are filled, from the front. heads is h for
    multi-head attention, the number of key/value groups for grouped-query
    attention, 1 for multi-query attention.

    append(k_new, v_new): k_new (heads, t, d_k), v_new (heads, t, d_v) are
    copied in -> read-only views (heads, length, d_k), (heads, length, d_v) of
    every position stored. ``nbytes`` -> int, the bytes of both buffers.

    The cache owns its buffers: appending copies the caller's arrays, and the
    views it returns cannot be written through.

    >>> cache = KVCache(heads=2, d_k=4, capacity=8)
    >>> keys, values = cache.append(np.ones((2, 3, 4)), np.zeros((2, 3, 4)))  # 3 positions
    >>> keys.shape, cache.length, cache.nbytes  # (heads, length, d_k); 2 buffers of 2 * 8 * 4 float64
    ((2, 3, 4), 3, 1024)

    Taught on: docs/11-generating-text.md
    """

    def __init__(self, heads, d_k, capacity, d_v=None, dtype=np.float64):
        heads, d_k = check_int(heads, "heads", 1), check_int(d_k, "d_k", 1)
        capacity = check_int(capacity, "capacity", 0)
        d_v = d_k if d_v is None else check_int(d_v, "d_v", 1)
        self.k = np.zeros((heads, capacity, d_k), dtype=dtype)  # (heads, capacity, d_k)
        self.v = np.zeros((heads, capacity, d_v), dtype=dtype)  # (heads, capacity, d_v)
        self.length = 0

    @property
    def heads(self):
        """Key/value heads stored -> int."""
        return self.k.shape[0]

    @property
    def capacity(self):
        """Positions the buffers can hold -> int."""
        return self.k.shape[1]

    @property
    def nbytes(self):
        """Bytes of the two buffers, k and v -> int."""
        return self.k.nbytes + self.v.nbytes

    def append(self, k_new, v_new):
        """Store the keys and values of t new positions after the ones already stored.

        k_new: (heads, t, d_k), v_new: (heads, t, d_v)
        -> (keys (heads, length, d_k), values (heads, length, d_v)), read-only
        views of every position stored so far, the new ones last.
        """
        k_new, v_new = np.asarray(k_new), np.asarray(v_new)
        if k_new.shape[:1] + k_new.shape[2:] != (self.heads, self.k.shape[2]) or v_new.shape != (
            self.heads,
            k_new.shape[1],
            self.v.shape[2],
        ):
            raise ValueError(
                f"expected k (heads={self.heads}, t, d_k={self.k.shape[2]}) and v (heads, t, "
                f"d_v={self.v.shape[2]}), got {k_new.shape} and {v_new.shape}"
            )
        stop = self.length + k_new.shape[1]
        if stop > self.capacity:
            raise ValueError(
                f"the cache holds {self.capacity} positions; {self.length} are stored, {k_new.shape[1]} more do not fit"
            )
        self.k[:, self.length : stop] = k_new
        self.v[:, self.length : stop] = v_new
        self.length = stop
        keys, values = self.k[:, :stop], self.v[:, :stop]  # (heads, length, d_k), (heads, length, d_v)
        keys.flags.writeable = values.flags.writeable = False
        return keys, values


def cached_self_attention(x_new, params, h, cache):
    """Causal self-attention for the next positions, reading earlier keys and values from a cache.

    x_new: (t, d_model), the layer's inputs at the next t positions (t = 1
    when generating token by token; the whole prompt at once to fill the
    cache), params: {"W_q" (d_model, h * d_k), "W_k" (d_model, g * d_k),
    "W_v" (d_model, g * d_v), "W_o" (h * d_v, d_model)} with g = cache.heads
    (g = h: multi-head attention, as made by attn.init_multi_head), h: query
    heads, cache: this layer's :class:`KVCache`, which receives the t new keys
    and values -> (t, d_model): the rows a full causal pass over all
    cache.length positions gives at the new positions.

    >>> rng = np.random.default_rng(0)
    >>> params = {name: rng.standard_normal((8, 8)) for name in ("W_q", "W_k", "W_v", "W_o")}
    >>> cache = KVCache(heads=2, d_k=4, capacity=5)
    >>> cached_self_attention(rng.standard_normal((3, 8)), params, 2, cache).shape  # the prompt: (t, d_model)
    (3, 8)
    >>> cached_self_attention(rng.standard_normal((1, 8)), params, 2, cache).shape, cache.length
    ((1, 8), 4)

    Taught on: docs/11-generating-text.md
    """
    x_new = np.asarray(x_new)
    if x_new.ndim != 2:
        raise ValueError(f"x_new must be (t, d_model), got shape {x_new.shape}")
    n_past, t = cache.length, x_new.shape[0]
    q = split_heads(x_new @ params["W_q"], h)  # (h, t, d_k)
    k = split_heads(x_new @ params["W_k"], cache.heads)  # (g, t, d_k)
    v = split_heads(x_new @ params["W_v"], cache.heads)  # (g, t, d_v)
    keys, values = cache.append(k, v)  # (g, n_past + t, d_k), (g, n_past + t, d_v)
    # New position n_past + i may read positions 0 .. n_past + i: one query needs no mask.
    mask = None if t == 1 else np.arange(n_past + t) <= n_past + np.arange(t)[:, None]  # (t, n_past + t)
    heads = attend_in_groups(q, keys, values, mask)  # (h, t, d_v)
    return merge_heads(heads) @ params["W_o"]  # (t, d_model)


def kv_cache_bytes(N, n, d_model, h, groups=None, itemsize=8):
    """Bytes of one sequence's key-value cache: 2 * N * n * groups * (d_model / h) * itemsize.

    N layers, n positions, h query heads of width d_model / h, groups key/value
    heads (default h: multi-head attention, which stores 2 * N * n * d_model
    numbers; groups = 1 is multi-query attention), itemsize bytes per number
    (8 for float64, 2 for 16-bit floats). -> int

    >>> kv_cache_bytes(N=2, n=10, d_model=16, h=4)  # 2 * 2 * 10 * 16 float64 numbers
    5120
    >>> kv_cache_bytes(N=2, n=10, d_model=16, h=4, groups=1)  # multi-query: 4 times smaller
    1280

    Taught on: docs/11-generating-text.md
    """
    N, n, d_model = check_int(N, "N", 0), check_int(n, "n", 0), check_int(d_model, "d_model", 1)
    h = check_int(h, "h", 1)
    groups = h if groups is None else check_int(groups, "groups", 1)
    itemsize = check_int(itemsize, "itemsize", 1)
    if d_model % h or h % groups:
        raise ValueError(f"need h | d_model and groups | h, got d_model = {d_model}, h = {h}, groups = {groups}")
    return 2 * N * n * groups * (d_model // h) * itemsize


def token_flops(n, d_model, d_ff, cached):
    """FLOPs of the matrix products one layer does to produce the token at position n - 1.

    cached=True: one new row through everything, 8 d^2 (W_q, W_k, W_v, W_o)
    + 4 n d (one query against n keys, then n values) + 4 d d_ff (the
    feed-forward network); cached=False: the full causal pass over all n
    positions again, 8 n d^2 + 4 n^2 d + 4 n d d_ff, with d = d_model.
    2 FLOPs per multiply-add; see the module docstring for what is left out.
    -> int

    >>> token_flops(4, 8, 32, cached=True), token_flops(4, 8, 32, cached=False)  # the second is n times the first
    (1664, 6656)

    Taught on: docs/11-generating-text.md
    """
    n, d, d_ff = check_int(n, "n", 1), check_int(d_model, "d_model", 1), check_int(d_ff, "d_ff", 1)
    rows = 1 if cached else n  # positions pushed through the layer
    projections = 2 * 4 * rows * d * d  # x W_q, x W_k, x W_v and heads W_o
    mixing = 2 * 2 * rows * n * d  # Q K^T and weights @ V: rows queries against n keys
    feed_forward = 2 * 2 * rows * d * d_ff  # x W_1 and hidden W_2
    return projections + mixing + feed_forward
