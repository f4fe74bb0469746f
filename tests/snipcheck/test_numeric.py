"""The numeric rule: a documented number stands for the interval its precision implies.

Hostile numbers: every way a wrong printed number could pass for the documented one.

The trailing-dot rule (numpy's ``1.`` beside ``0.802`` is 1.000, never "give or take 0.5"), the
Unicode minus, thousands separators and complex numbers, in output blocks and in ties.
"""

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
    [
        ("0.248", 0.30123, "0.301"),
        ("256", 300, "300"),
        ("1033.0", 1032.51, "1032.5"),
        ("-0.5", -0.04, "0.0"),
        ("0.00", -0.001, "0.00"),
        ("1e-12", 3.2e-12, "3e-12"),
        ("2.50e3", 2612.0, "2.61e+03"),
    ],
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


# (documented output, computed output, the drifts the user is shown as (documented, computed))
OUTPUTS = [
    # the planted layer_norm bug: numpy's "1." is exact at the array's precision
    (
        "row stds of out: [1. 1. 1. 1.]",
        "row stds of out: [0.823 0.842 0.733 0.581]",
        [("1.", "0.823"), ("1.", "0.842"), ("1.", "0.733"), ("1.", "0.581")],
    ),
    ("[1.    0.802]", "[0.998 0.802]", [("1.", "0.998")]),
    ("[[1.    0.5  ]\n [0.    1.   ]]", "[[1.    0.5  ]\n [0.06  1.   ]]", [("0.", "0.06")]),
    ("[1. 0.]", "[1.0000001 0.]", [("1.", "1.0000001")]),
    ("x = 1.", "x = 1.4", [("1.", "1.4")]),
    ("[-2.   0.5 ]", "[-1.9  0.5 ]", [("-2.", "-1.9")]),
    ("[1.e+00 1.234e-05]", "[1.2e+00 1.234e-05]", [("1.e+00", "1.2e+00")]),
    # the Unicode minus is a minus sign
    ("\u22120.5", "0.5", [("\u22120.5", "0.5")]),
    ("delta: \u22121.25", "delta: 1.25", [("\u22121.25", "1.25")]),
    # complex numbers: both parts at their printed precision
    ("0.5+1.2j", "0.5+1.9j", [("+1.2j", "+1.9j")]),
    ("(0.5+1.2j)", "(0.5-1.2j)", [("+1.2j", "-1.2j")]),
    ("[1. +0.j  0.5-1.2j]", "[1. +0.3j 0.5-1.2j]", [("+0.j", "+0.3j")]),
    ("z = 1.2j", "z = 1.2", [("1.2j", "1.2")]),
    # thousands: the whole number is named
    ("pairs: 20,000", "pairs: 20,001", [("20,000", "20,001")]),
    ("1,234.5 ms", "1,234.56 ms", [("1,234.5", "1,234.56")]),
    # text, nan and inf are exact
    ("equal: True", "equal: False", [("equal: True", "equal: False")]),
    ("loss nan", "loss 0.5", [("nan", "0.5")]),
    ("inf", "-inf", [("inf", "-inf")]),
    ("0.5x", "0.9x", [("0.5x", "0.9x")]),  # glued to a word: text, compared exactly
]


@pytest.mark.hostile
@pytest.mark.parametrize(("documented", "computed", "drifts"), OUTPUTS)
def test_a_wrong_number_in_output_is_a_drift_naming_both_numbers(documented, computed, drifts):
    assert [(d.documented, d.computed) for d in compare_output(documented, computed)] == drifts


# (documented output, computed output) that must pass
MATCHING = [
    ("[1.    0.802]", "[1.    0.802]"),
    ("[1.    0.802]", "[1.0004 0.802]"),  # within 1.000 +- 0.0005
    ("\u22120.5", "-0.5"),
    ("-0.5", "\u22120.5"),
    ("[1. +0.j  0.5-1.2j]", "[1.+0.j 0.5-1.2j]"),
    ("0.5+1.2j", "0.5+1.24j"),
    ("np.float64(0.5) np.True_", "0.5 True"),
    ("20,000", "20,000"),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("documented", "computed"), MATCHING)
def test_the_same_numbers_printed_differently_pass(documented, computed):
    assert compare_output(documented, computed) == []


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("1.", "0.999999995", "1.000000005"),  # alone: exact at numpy's print precision
        ("-2.", "-2.000000005", "-1.999999995"),
    ],
)
def test_a_trailing_dot_alone_is_exact_to_numpys_precision(text, low, high):
    [token] = tokenize(text)
    assert tuple(str(x) for x in token.number.interval()) == (low, high)


@pytest.mark.hostile
def test_a_trailing_dot_never_means_half_a_unit():
    assert not Number("1.").accepts("0.6")
    assert not Number("1.").accepts("1.4")


TIES_SNIPPET = """
one = 1.0
near = 0.823
arr = [1.0, 0.802]
arr_off = [0.998, 0.802]
neg = -0.5
pos = 0.5
big = 20000
cplx = 0.5 + 1.2j
flag = True
ints = [1, 2, 3]
nanv = float("nan")
huge = 10 ** 5000
"""

# (tie, the problem the user sees, or None if it passes)
TIES = [
    ("{{ 1. = near }}", "documented 1., computed near = 0.823"),
    ("{{ 1. = one }}", None),
    ("{{ [1., 0.802] = arr }}", None),
    ("{{ [1., 0.802] = arr_off }}", "documented [1., 0.802], computed arr_off = [0.998, 0.802] (1. vs 0.998)"),
    ("{{ \u22120.5 = neg }}", None),
    ("{{ \u22120.5 = pos }}", "documented \u22120.5, computed pos = 0.5"),
    ("{{ 20,001 = big }}", "documented 20,001, computed big = 20000"),
    ("{{ 0.5+1.2j = cplx }}", None),
    ("{{ 0.5+1.3j = cplx }}", "documented 0.5+1.3j, computed cplx = (0.5+1.2j)"),
    ("{{ 0.5 = cplx }}", "1 number documented, 2 numbers computed"),
    ("{{ True = flag }}", None),
    ("{{ 1 = flag }}", "the value is a boolean: write True or False"),
    ("{{ True = one }}", "a boolean is documented, the value is not one"),
    ("{{ [1, 2] = ints }}", "2 numbers documented, 3 numbers computed"),
    ("{{ 0.5 = nanv }}", "documented 0.5, computed nanv = nan"),
    ("{{ nan = nanv }}", None),
    ("{{ 5 = huge }}", "'huge' cannot be checked: it cannot be recorded (ValueError"),
]


@pytest.fixture(scope="module")
def tie_build(tmp_path_factory):
    from snipkit import Project

    project = Project(tmp_path_factory.mktemp("ties"))
    lines = ["# Ties", "", '```python run="v.py"', "```", ""] + [f"Case {i}: {tie}." for i, (tie, _) in enumerate(TIES)]
    project.page("p.md", "\n".join(lines) + "\n")
    project.snippet("v.py", TIES_SNIPPET)
    return project.build()


@pytest.mark.hostile
@pytest.mark.parametrize(("index", "tie", "expected"), [(i, t, e) for i, (t, e) in enumerate(TIES)])
def test_a_tie_compares_by_the_same_rules(tie_build, index, tie, expected):
    line = 6 + index
    found = [str(p) for p in tie_build.problems if p.line == line]
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(f"docs/p.md:{line}: ") and expected in found[0], found
