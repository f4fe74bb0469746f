"""FlashAttention's IO: the reads and writes of GPU main memory (HBM), counted element by element.

Dao et al. (2022) count the traffic between a GPU's large, slow HBM and its small on-chip SRAM of
M elements. Standard attention (their Algorithm 0) writes the n x n scores S and weights P to HBM
and reads them back; FlashAttention (their Algorithm 1) loads tiles of Q, K and V into SRAM,
combines them with the online softmax (:mod:`attn.blockwise` teaches it) and writes only the
output and two numbers per row. Their Theorem 2:

    standard:        Theta(n d + n^2)       HBM accesses
    FlashAttention:  Theta(n^2 d^2 / M)     HBM accesses

This module counts both exactly, for the algorithms as the paper writes them, twice: in closed form
(:func:`standard_hbm_accesses`, :func:`flash_hbm_accesses`) and by running them on numpy arrays
through a counter that tallies every element loaded or stored (:func:`standard_attention_io`,
:func:`flash_attention_io`). The backward pass needs P again; FlashAttention recomputes it, one
tile at a time, from Q, K and the logsumexp of each row (:func:`weights_from_logsumexp`).

Taught on: docs/15-long-context.md
"""

import math

import numpy as np

from ._validate import check_int


def flash_block_sizes(d, sram):
    """Algorithm 1's tile sizes for head width d and M = ``sram`` elements of SRAM.

    -> (B_r, B_c) ints: B_c = ceil(M / 4d) key rows, B_r = min(ceil(M / 4d), d) query rows.

    >>> flash_block_sizes(64, 50_000)  # (query rows, key rows) per tile
    (64, 196)

    Taught on: docs/15-long-context.md
    """
    d, sram = check_int(d, "d", 1), check_int(sram, "sram", 1)
    b_c = -(-sram // (4 * d))  # ceil(M / 4d)
    return min(b_c, d), b_c


def standard_hbm_accesses(n, d):
    """Elements read from and written to HBM by standard attention (Algorithm 0), one head.

    Read Q, K; write S = Q K^T; read S; write P = softmax(S); read P, V; write O = P V.
    -> (reads, writes) ints: (3 n d + 2 n^2, n d + 2 n^2).

    >>> standard_hbm_accesses(4, 2)  # (reads, writes)
    (56, 40)

    Taught on: docs/15-long-context.md
    """
    n, d = check_int(n, "n", 0), check_int(d, "d", 1)
    return 3 * n * d + 2 * n * n, n * d + 2 * n * n


def flash_hbm_accesses(n, d, sram):
    """Elements read from and written to HBM by FlashAttention's forward pass (Algorithm 1), one head.

    O, l, m start in HBM (n d + 2n written). For each of the T_c = ceil(n / B_c) key tiles, K_j and
    V_j are read once, and every query tile reads Q_i, O_i, l_i, m_i and writes O_i, l_i, m_i back.
    -> (reads, writes) ints: (2 n d + T_c (2 n d + 2 n), (T_c + 1)(n d + 2 n)).

    >>> flash_hbm_accesses(4, 2, 16)  # (reads, writes); tiles of 2 x 2, T_c = 2
    (64, 48)

    Taught on: docs/15-long-context.md
    """
    n, d = check_int(n, "n", 0), check_int(d, "d", 1)
    t_c = -(-n // flash_block_sizes(d, sram)[1])  # key tiles
    return 2 * n * d + t_c * (2 * n * d + 2 * n), (t_c + 1) * (n * d + 2 * n)


class HBM:
    """A tally of the elements moved between HBM (numpy arrays) and SRAM (the local copies).

    load(array, rows) -> a copy of array[rows], counted in ``reads``;
    store(array, rows, value) -> None, writes value to array[rows], counted in ``writes``.

    >>> hbm = HBM()
    >>> tile = hbm.load(np.ones((4, 3)), slice(0, 2))  # (2, 3): 6 elements read
    >>> hbm.reads, hbm.writes
    (6, 0)

    Taught on: docs/15-long-context.md
    """

    def __init__(self):
        self.reads = 0
        self.writes = 0

    def load(self, array, rows):
        """array[rows], copied into SRAM -> a new array."""
        tile = np.array(array[rows])
        self.reads += tile.size
        return tile

    def store(self, array, rows, value):
        """array[rows] <- value, written back to HBM -> None."""
        array[rows] = value
        self.writes += np.size(value)


def _head(q, k, v):
    """q, k: (n, d), v: (n, d) as float64 copies, checked."""
    q, k, v = (np.array(a, dtype=np.float64) for a in (q, k, v))
    if q.ndim != 2 or q.shape != k.shape or k.shape != v.shape:
        raise ValueError(f"need q, k, v of one shape (n, d), got {q.shape}, {k.shape}, {v.shape}")
    return q, k, v


def standard_attention_io(q, k, v):
    """Standard attention run as Algorithm 0, S and P kept in HBM, every access counted.

    q, k, v: (n, d) -> (out (n, d), hbm :class:`HBM` with the reads and writes).

    >>> out, hbm = standard_attention_io(np.eye(4, 2), np.eye(4, 2), np.ones((4, 2)))
    >>> out.shape, (hbm.reads, hbm.writes) == standard_hbm_accesses(4, 2)  # (n, d)
    ((4, 2), True)

    Taught on: docs/15-long-context.md
    """
    q, k, v = _head(q, k, v)
    n, d = q.shape
    hbm, every = HBM(), slice(None)
    s, p, out = np.empty((n, n)), np.empty((n, n)), np.empty((n, d))  # all three live in HBM
    hbm.store(s, every, hbm.load(q, every) @ hbm.load(k, every).T / math.sqrt(d))  # (n, n)
    scores = hbm.load(s, every)  # (n, n)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))  # (n, n)
    hbm.store(p, every, e / e.sum(axis=1, keepdims=True))
    hbm.store(out, every, hbm.load(p, every) @ hbm.load(v, every))  # (n, d)
    return out, hbm


def flash_attention_io(q, k, v, sram):
    """FlashAttention's forward pass as Algorithm 1 of Dao et al. (2022), every HBM access counted.

    q, k, v: (n, d), sram: M elements -> (out (n, d), lse (n,), hbm :class:`HBM`). lse is each
    row's logsumexp, m + log l, all the backward pass needs to rebuild the weights. Scores are
    scaled by 1 / sqrt(d), as in the paper's implementation; no mask, no dropout.

    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.standard_normal((3, 10, 4))  # (n, d) each
    >>> out, lse, hbm = flash_attention_io(q, k, v, sram=32)  # tiles of 2 query and 2 key rows
    >>> out.shape, (hbm.reads, hbm.writes) == flash_hbm_accesses(10, 4, 32)  # (n, d)
    ((10, 4), True)

    Taught on: docs/15-long-context.md
    """
    q, k, v = _head(q, k, v)
    n, d = q.shape
    b_r, b_c = flash_block_sizes(d, check_int(sram, "sram", 1))
    hbm = HBM()
    out, l, m = np.empty((n, d)), np.empty((n, 1)), np.empty((n, 1))  # in HBM
    every = slice(None)
    hbm.store(out, every, np.zeros((n, d)))
    hbm.store(l, every, np.zeros((n, 1)))
    hbm.store(m, every, np.full((n, 1), -np.inf))
    for j in range(0, n, b_c):
        keys = slice(j, j + b_c)
        k_j, v_j = hbm.load(k, keys), hbm.load(v, keys)  # (B_c, d) each
        for i in range(0, n, b_r):
            rows = slice(i, i + b_r)
            q_i, o_i, l_i, m_i = (hbm.load(a, rows) for a in (q, out, l, m))  # (B_r, d), (B_r, d), (B_r, 1) x 2
            s_ij = q_i @ k_j.T / math.sqrt(d)  # (B_r, B_c), in SRAM only
            m_tile = s_ij.max(axis=1, keepdims=True)  # (B_r, 1)
            p_tile = np.exp(s_ij - m_tile)  # (B_r, B_c)
            m_new = np.maximum(m_i, m_tile)  # (B_r, 1)
            old, new = np.exp(m_i - m_new), np.exp(m_tile - m_new)  # (B_r, 1) each: rescalings
            l_new = old * l_i + new * p_tile.sum(axis=1, keepdims=True)  # (B_r, 1)
            hbm.store(out, rows, (l_i * old * o_i + new * (p_tile @ v_j)) / l_new)
            hbm.store(l, rows, l_new)
            hbm.store(m, rows, m_new)
    return out, (m + np.log(l))[:, 0], hbm


def weights_from_logsumexp(q, k, lse):
    """The attention weights rebuilt from the row logsumexps: P = exp(Q K^T / sqrt(d_k) - L).

    q: (n_q, d_k), k: (n_k, d_k) (a tile of each will do), lse: (n_q,), the logsumexp of each
    query row over all its keys -> (n_q, n_k). This is the recomputation of FlashAttention's
    backward pass: only O and L are stored, never P.

    >>> q, k = np.zeros((1, 2)), np.zeros((3, 2))  # (n_q, d_k), (n_k, d_k): equal scores
    >>> weights_from_logsumexp(q, k, np.log([3.0])).round(3)  # (n_q, n_k)
    array([[0.333, 0.333, 0.333]])

    Taught on: docs/15-long-context.md
    """
    q, k, lse = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64), np.asarray(lse, dtype=np.float64)
    if q.ndim != 2 or k.ndim != 2 or q.shape[1] != k.shape[1] or lse.shape != q.shape[:1]:
        raise ValueError(f"need q (n_q, d_k), k (n_k, d_k), lse (n_q,), got {q.shape}, {k.shape}, {lse.shape}")
    return np.exp(q @ k.T / math.sqrt(q.shape[1]) - lse[:, None])  # (n_q, n_k)
