"""Sliding-window attention: each query sees only the last w keys, and a cache of w positions.

Longformer (Beltagy, Peters and Cohan 2020) and Mistral 7B (Jiang et al. 2023) let position i
attend to the keys i - w + 1 .. i only: a band of width w under the causal diagonal. The scores
outside the band get weight 0, so a decoder never needs a key older than w - 1 positions back,
and its key-value cache can be a ring buffer of w slots that overwrites the oldest position.

One layer sees w - 1 positions back; a second layer reads outputs that each saw w - 1 further
back, so after L layers information can arrive from up to L (w - 1) positions back
(:func:`receptive_field` propagates that reach layer by layer).

Taught on: docs/15-long-context.md
"""

import numpy as np

from ._validate import check_int


def sliding_window_mask(n, w):
    """Causal mask of a sliding window: query i may attend to keys i - w + 1 .. i.

    n: positions, w: window (keys each query sees, itself included), w >= 1
    -> bool (n, n), True where 0 <= i - j < w. w >= n gives the causal mask.

    >>> sliding_window_mask(4, 2).astype(int)  # (n, n): the diagonal and one key back
    array([[1, 0, 0, 0],
           [1, 1, 0, 0],
           [0, 1, 1, 0],
           [0, 0, 1, 1]])

    Taught on: docs/15-long-context.md
    """
    n, w = check_int(n, "n", 0), check_int(w, "w", 1)
    back = np.arange(n)[:, None] - np.arange(n)  # (n, n): i - j
    return (back >= 0) & (back < w)


def receptive_field(mask, layers):
    """Which inputs can reach each output after ``layers`` layers that all use the same mask.

    mask: bool (n, n), True = query i may read position j of the layer below, layers >= 1
    -> bool (n, n): entry (i, j) is True when some path i <- ... <- j of ``layers`` steps exists,
    each step allowed by the mask (boolean matrix product, applied layer by layer).

    >>> receptive_field(sliding_window_mask(5, 2), 2)[4].astype(int)  # (n,): two layers reach 2 back
    array([0, 0, 1, 1, 1])

    Taught on: docs/15-long-context.md
    """
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim != 2 or mask.shape[0] != mask.shape[1]:
        raise ValueError(f"mask must be square (n, n), got shape {mask.shape}")
    layers = check_int(layers, "layers", 1)
    step = mask.astype(np.int64)  # (n, n)
    reach = mask.copy()  # (n, n): after one layer
    for _ in range(layers - 1):
        reach = (step @ reach.astype(np.int64)) > 0  # (n, n): one more layer below
    return reach


class RollingKVCache:
    """A key-value cache of the last ``window`` positions: a ring buffer that overwrites the oldest.

    RollingKVCache(heads, d_k, window, d_v=None, dtype=np.float64) allocates ``k`` (heads, window,
    d_k) and ``v`` (heads, window, d_v). ``length`` counts every position appended so far; slot
    p % window holds position p.

    append(k_new, v_new): k_new (heads, t, d_k), v_new (heads, t, d_v), the next t positions ->
    (keys (heads, m, d_k), values (heads, m, d_v)), new arrays of the m = min(length, window)
    positions kept, oldest first. Memory stays ``nbytes`` -> int, whatever the length.

    >>> cache = RollingKVCache(heads=1, d_k=2, window=3)
    >>> for p in range(5):
    ...     keys, values = cache.append(np.full((1, 1, 2), p), np.full((1, 1, 2), p))
    >>> keys[0, :, 0], cache.length, cache.nbytes  # positions 2, 3, 4 kept; (heads, window, d) x 2 float64
    (array([2., 3., 4.]), 5, 96)

    Taught on: docs/15-long-context.md
    """

    def __init__(self, heads, d_k, window, d_v=None, dtype=np.float64):
        heads, d_k = check_int(heads, "heads", 1), check_int(d_k, "d_k", 1)
        window = check_int(window, "window", 1)
        d_v = d_k if d_v is None else check_int(d_v, "d_v", 1)
        self.k = np.zeros((heads, window, d_k), dtype=dtype)  # (heads, window, d_k)
        self.v = np.zeros((heads, window, d_v), dtype=dtype)  # (heads, window, d_v)
        self.length = 0

    @property
    def window(self):
        """Positions kept -> int."""
        return self.k.shape[1]

    @property
    def nbytes(self):
        """Bytes of the two buffers, k and v -> int."""
        return self.k.nbytes + self.v.nbytes

    def append(self, k_new, v_new):
        """Store t new positions, overwriting the oldest -> (keys, values) kept, oldest first."""
        k_new, v_new = np.asarray(k_new), np.asarray(v_new)
        heads, _, d_k = self.k.shape
        if (
            k_new.ndim != 3
            or k_new.shape[::2] != (heads, d_k)
            or v_new.shape != (heads, k_new.shape[1], self.v.shape[2])
        ):
            raise ValueError(
                f"expected k (heads={heads}, t, d_k={d_k}) and v (heads, t, d_v={self.v.shape[2]}), "
                f"got {k_new.shape} and {v_new.shape}"
            )
        for p in range(k_new.shape[1]):
            slot = (self.length + p) % self.window
            self.k[:, slot], self.v[:, slot] = k_new[:, p], v_new[:, p]
        self.length += k_new.shape[1]
        kept = min(self.length, self.window)
        order = (self.length - kept + np.arange(kept)) % self.window  # (kept,): slots, oldest first
        return self.k[:, order], self.v[:, order]  # (heads, kept, d_k), (heads, kept, d_v)
