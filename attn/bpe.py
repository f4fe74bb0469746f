"""Byte-pair encoding: grow a vocabulary by merging the most frequent adjacent pair of tokens.

Sennrich et al. (2016) start from characters and repeat one step: count every adjacent pair,
give the most frequent one a new id, and replace each of its occurrences, left to right, by that
id. The merges, in order, are the tokenizer; encoding new text replays them in the same order.
Ties between equally frequent pairs go to the smallest pair (first id, then second), so a
learned tokenizer depends on the text alone.

Tokens are ints: ids 0 .. first_new - 1 are the starting symbols (characters, or bytes as in
GPT-2), and merge i creates id first_new + i.

Taught on: docs/13-real-language.md
"""

import numpy as np

from ._validate import check_int


def pair_counts(ids):
    """Every adjacent pair and how often it occurs (overlaps counted, as "aaa" holds "aa" twice).

    ids: int (n,) -> (pairs int (m, 2), counts int (m,)), the pairs sorted (first id, then second)

    >>> pair_counts(np.array([0, 1, 0, 1, 1]))
    (array([[0, 1],
           [1, 0],
           [1, 1]]), array([2, 1, 1]))

    Taught on: docs/13-real-language.md
    """
    ids = _ids(ids)
    if ids.size < 2:
        return np.empty((0, 2), dtype=np.int64), np.empty(0, dtype=np.int64)
    base = int(ids.max()) + 1
    codes, counts = np.unique(ids[:-1] * base + ids[1:], return_counts=True)  # (m,): one int per pair
    return np.stack([codes // base, codes % base], axis=1), counts  # (m, 2), sorted as the codes are


def merge_pair(ids, pair, new_id):
    """Replace each occurrence of ``pair``, scanning left to right, by ``new_id``.

    Occurrences do not overlap: with pair (a, a), "a a a" becomes "aa a".
    ids: int (n,), pair: (first, second), new_id: int -> int (n - occurrences,), a new array

    >>> merge_pair(np.array([0, 0, 0, 1, 0, 0]), (0, 0), 7)
    array([7, 0, 1, 7])

    Taught on: docs/13-real-language.md
    """
    ids = _ids(ids)
    first, second = pair
    starts = np.flatnonzero((ids[:-1] == first) & (ids[1:] == second))  # (k,) candidate positions
    if first == second and starts.size:
        # In a run of consecutive candidates, a left-to-right scan takes every other one.
        new_run = np.concatenate([[True], np.diff(starts) != 1])  # (k,)
        run_start = np.maximum.accumulate(np.where(new_run, np.arange(starts.size), 0))
        starts = starts[(np.arange(starts.size) - run_start) % 2 == 0]
    out = ids.copy()
    out[starts] = new_id
    return np.delete(out, starts + 1)


def learn_bpe(ids, merges, first_new):
    """Learn ``merges`` merges from a text: each time the most frequent pair (ties: the smallest).

    ids: int (n,) the text as starting symbols, merges: how many to learn, first_new: the first
    unused id -> (merge list [(first, second), ...], the text's tokens int (n',)). It stops early
    when no pair occurs twice.

    >>> merges, tokens = learn_bpe(np.array([0, 0, 0, 1, 3, 0, 0, 0, 1, 0, 2]), 3, 4)  # "aaabdaaabac"
    >>> merges, tokens  # aa -> 4, ab -> 5, (aa)(ab) -> 6: "XdXac"
    ([(0, 0), (0, 1), (4, 5)], array([6, 3, 6, 0, 2]))

    Taught on: docs/13-real-language.md
    """
    merges, first_new = check_int(merges, "merges", 0), check_int(first_new, "first_new", 0)
    tokens, learned = _ids(ids), []
    if tokens.size and tokens.max() >= first_new:
        raise ValueError(f"every starting id must lie below first_new = {first_new}, got {tokens.max()}")
    for step in range(merges):
        pairs, counts = pair_counts(tokens)
        if not counts.size or counts.max() < 2:
            break
        best = pairs[np.argmax(counts)]  # argmax takes the first of equal counts: the smallest pair
        learned.append((int(best[0]), int(best[1])))
        tokens = merge_pair(tokens, learned[-1], first_new + step)
    return learned, tokens


def bpe_encode(ids, merges, first_new):
    """Tokens of a new text: replay the learned merges, in order.

    ids: int (n,) starting symbols, merges: from :func:`learn_bpe` -> int (n',)

    >>> bpe_encode(np.array([0, 0, 0, 1]), [(0, 0), (0, 1), (4, 5)], 4)
    array([6])

    Taught on: docs/13-real-language.md
    """
    tokens = _ids(ids)
    for step, pair in enumerate(merges):
        tokens = merge_pair(tokens, pair, first_new + step)
    return tokens


def bpe_decode(tokens, merges, first_new):
    """The starting symbols behind tokens: undo the merges, last first.

    tokens: int (n',) -> int (n,)

    >>> bpe_decode(np.array([6, 3]), [(0, 0), (0, 1), (4, 5)], 4)
    array([0, 0, 0, 1, 3])

    Taught on: docs/13-real-language.md
    """
    ids = _ids(tokens)
    for step in reversed(range(len(merges))):
        at = ids == first_new + step  # (n',)
        pieces = np.where(at[:, None], np.array(merges[step]), np.stack([ids, np.full_like(ids, -1)], 1))  # (n', 2)
        ids = pieces[pieces != -1]  # each merged id becomes its pair, in order
    return ids


def _ids(ids):
    """ids as a 1-D int64 array of non-negative ids, else ValueError."""
    ids = np.asarray(ids)
    if ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
        raise ValueError(f"ids must be a 1-D array of ints, got {ids.dtype} of shape {ids.shape}")
    if ids.size and ids.min() < 0:
        raise ValueError(f"ids must be non-negative, got {ids.min()}")
    return ids.astype(np.int64)
