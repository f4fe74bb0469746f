"""The numeric rule: a documented number stands for the interval its precision implies."""

from __future__ import annotations

import pytest

from snipcheck.numeric import Drift, Number, compare_output, tokenize


@pytest.mark.parametrize(
    ("documented", "computed", "ok"),
    [
        ("0.248", "0.248", True),
        ("0.248", "0.2475", True),  # the interval is closed at both ends
        ("0.248", "0.2485", True),
        ("0.248", "0.24749999", False),
        ("0.248", "0.24850001", False),
        ("0.248", "0.2482541", True),
        ("256", "256", True),  # integers only match themselves
        ("256", "256.0", True),
        ("256", "256.4", False),
        ("256", "255", False),
        ("1033.0", "1033.04", True),
        ("1033.0", "1033.06", False),
        ("4.0", "3.95", True),
        ("0.0", "-0.0", True),  # -0.0 equals 0.0
        ("-0.0", "0.0", True),
        ("0.000", "-0.0004", True),
        ("nan", "nan", True),  # nan and inf only equal themselves
        ("nan", "0.0", False),
        ("0.0", "nan", False),
        ("inf", "inf", True),
        ("inf", "-inf", False),
        ("-inf", "-inf", True),
        ("1e-12", "1.4e-12", True),
        ("1e-12", "1.6e-12", False),
        ("2.5e3", "2549", True),
        ("2.5e3", "2551", False),
        ("20,000", "20000", True),
        ("0.32", "0.3249", True),
        ("0.32", "0.3251", False),
    ],
)
def test_number_accepts_values_within_its_printed_precision(documented, computed, ok):
    assert Number(documented).accepts(computed) is ok


@pytest.mark.parametrize(
    ("documented", "computed", "expected"),
    [("0.248", 0.30123, "0.301"), ("256", 300, "300"), ("1033.0", 1032.51, "1032.5"), ("-0.5", -0.04, "0.0"),
     ("0.00", -0.001, "0.00"), ("1e-12", 3.2e-12, "3e-12"), ("2.50e3", 2612.0, "2.61e+03")],
)
def test_format_like_keeps_the_documented_precision(documented, computed, expected):
    assert Number(documented).format_like(computed) == expected


def test_tokenize_splits_numbers_from_text_and_reads_numpy_scalars():
    tokens = tokenize("max: np.float64(0.5) at (4, 8)\nd_k4 -3.5e-2")
    assert [t.text for t in tokens] == ["max:", "0.5", "at", "(", "4", ",", "8", ")", "d_k4", "-3.5e-2"]
    assert [t.number is not None for t in tokens] == [False, True, False, False, True, False, True, False, False, True]
    assert [t.line for t in tokens][-1] == 1


def test_numpy_column_alignment_is_not_a_drift():
    documented = "[[ 0.5  -0.25]\n [ 1.    0.  ]]"
    computed = "[[0.5 -0.25]\n [1. 0.]]"
    assert compare_output(documented, computed) == []


def test_every_drifting_number_is_listed_with_its_line():
    drifts = compare_output("a 0.248\nb 0.503\nc 2", "a 0.301\nb 0.503\nc 3")
    assert [(d.line, d.documented, d.computed) for d in drifts] == [(0, "0.248", "0.301"), (2, "2", "3")]


def test_a_text_drift_shows_both_lines_and_stops():
    drifts = compare_output("weights:\n0.5", "scores:\n0.9")
    assert [(d.line, d.documented, d.computed) for d in drifts] == [(0, "weights:", "scores:")]


@pytest.mark.parametrize(
    ("documented", "computed", "line", "doc_side", "got_side"),
    [
        ("a 1\nb 2", "a 1", 1, "b 2", "(output ends here)"),
        ("a 1", "a 1\nb 2", 0, "(documented output ends here)", "b 2"),
    ],
)
def test_missing_or_extra_lines_are_drifts(documented, computed, line, doc_side, got_side):
    [drift] = compare_output(documented, computed)
    assert (drift.line, drift.documented, drift.computed) == (line, doc_side, got_side)


def test_tokenize_and_compare_output_remember_nothing_a_caller_can_change():
    """Both remember their answer by the exact text; what they hand back is the caller's own list."""
    text = "[[0.401 0.198]\n [1.    0.5  ]]"
    first = tokenize(text)
    first.clear()
    assert [t.text for t in tokenize(text)] == ["[[", "0.401", "0.198", "]", "[", "1.", "0.5", "]]"]
    drifts = compare_output("0.25 0.5", "0.26 0.5")
    drifts.append("not a drift")
    assert compare_output("0.25 0.5", "0.26 0.5") == [Drift(0, "0.25", "0.26")]
    assert compare_output("0.25 0.5", "0.25 0.5") == []
