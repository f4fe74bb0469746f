"""attn.bpe: byte-pair encoding against a hand calculation and a plain-Python scan."""

from collections import Counter

import numpy as np
import pytest

import attn

A, B, C, D = 0, 1, 2, 3
WIKI = [A, A, A, B, D, A, A, A, B, A, C]  # "aaabdaaabac"


def scan_merge(ids, pair, new_id):
    """The left-to-right scan, one symbol at a time."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def test_the_hand_calculation():
    # aa (4 times, overlapping) is the most frequent pair: Z = aa gives "ZabdZabac"; then ab and
    # Za both occur twice and the smaller pair, ab, wins: Y = ab gives "ZYdZYac"; then X = ZY.
    merges, tokens = attn.learn_bpe(np.array(WIKI), 3, 4)
    assert merges == [(A, A), (A, B), (4, 5)]
    np.testing.assert_array_equal(tokens, [6, D, 6, A, C])


@pytest.mark.parametrize(
    ("ids", "pair", "expected"),
    [
        ([A, A, A], (A, A), [9, A]),
        ([A, A, A, A], (A, A), [9, 9]),
        ([A, A, B, A, A, A, A, A], (A, A), [9, B, 9, 9, A]),
        ([A, B, A, B], (B, A), [A, 9, B]),
        ([A], (A, A), [A]),
        ([], (A, A), []),
    ],
)
def test_merge_pair_is_the_left_to_right_scan(ids, pair, expected):
    assert scan_merge(ids, pair, 9) == expected
    np.testing.assert_array_equal(attn.merge_pair(np.array(ids, dtype=np.int64), pair, 9), expected)


def test_merge_pair_matches_the_scan_on_random_text(rng):
    for _ in range(20):
        ids = rng.integers(0, 3, 200)
        pair = tuple(int(v) for v in rng.integers(0, 3, 2))
        np.testing.assert_array_equal(attn.merge_pair(ids, pair, 7), scan_merge(ids.tolist(), pair, 7))


def test_pair_counts_match_a_counter(rng):
    ids = rng.integers(0, 4, 300)
    pairs, counts = attn.pair_counts(ids)
    expected = Counter(zip(ids[:-1].tolist(), ids[1:].tolist(), strict=True))
    assert dict(zip(map(tuple, pairs.tolist()), counts.tolist(), strict=True)) == expected


def test_encode_replays_and_decode_inverts(rng):
    text = rng.integers(0, 4, 2000)
    merges, tokens = attn.learn_bpe(text, 30, 4)
    assert len(merges) == 30 and len(tokens) < len(text)
    np.testing.assert_array_equal(attn.bpe_encode(text, merges, 4), tokens)
    np.testing.assert_array_equal(attn.bpe_decode(tokens, merges, 4), text)
    other = rng.integers(0, 4, 500)
    np.testing.assert_array_equal(attn.bpe_decode(attn.bpe_encode(other, merges, 4), merges, 4), other)


def test_learning_stops_when_no_pair_repeats():
    merges, tokens = attn.learn_bpe(np.array([A, B, C, D]), 5, 4)
    assert merges == [] and tokens.tolist() == [A, B, C, D]


def test_arguments_are_not_written(rng):
    text = rng.integers(0, 3, 100)
    before = text.copy()
    attn.learn_bpe(text, 5, 3)
    attn.merge_pair(text, (0, 1), 3)
    np.testing.assert_array_equal(text, before)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: attn.learn_bpe(np.array([0, 5]), 2, 4), ValueError, "below first_new"),
        (lambda: attn.learn_bpe(np.array([[0, 1]]), 2, 4), ValueError, "1-D"),
        (lambda: attn.learn_bpe(np.array([0.5, 1.0]), 2, 4), ValueError, "ints"),
        (lambda: attn.merge_pair(np.array([-1, 0]), (0, 0), 3), ValueError, "non-negative"),
        (lambda: attn.learn_bpe(np.array([0, 1]), -1, 4), ValueError, "merges"),
    ],
)
def test_hostile_input_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()
