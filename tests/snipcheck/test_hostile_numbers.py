"""Hostile numbers: every way a wrong printed number could pass for the documented one.

The trailing-dot rule (numpy's ``1.`` beside ``0.802`` is 1.000, never "give or take 0.5"), the
Unicode minus, thousands separators and complex numbers, in output blocks and in ties.
"""

from __future__ import annotations

import pytest

from snipcheck.numeric import Number, compare_output, tokenize

# (documented output, computed output, the drifts the user is shown as (documented, computed))
OUTPUTS = [
    # the planted layer_norm bug: numpy's "1." is exact at the array's precision
    ("row stds of out: [1. 1. 1. 1.]", "row stds of out: [0.823 0.842 0.733 0.581]",
     [("1.", "0.823"), ("1.", "0.842"), ("1.", "0.733"), ("1.", "0.581")]),
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


@pytest.mark.parametrize(("documented", "computed"), MATCHING)
def test_the_same_numbers_printed_differently_pass(documented, computed):
    assert compare_output(documented, computed) == []


@pytest.mark.parametrize(("text", "low", "high"), [
    ("1.", "0.999999995", "1.000000005"),  # alone: exact at numpy's print precision
    ("-2.", "-2.000000005", "-1.999999995"),
])
def test_a_trailing_dot_alone_is_exact_to_numpys_precision(text, low, high):
    [token] = tokenize(text)
    assert tuple(str(x) for x in token.number.interval()) == (low, high)


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
    from conftest import Project

    project = Project(tmp_path_factory.mktemp("ties"))
    lines = ["# Ties", "", '```python run="v.py"', "```", ""] + [f"Case {i}: {tie}." for i, (tie, _) in enumerate(TIES)]
    project.page("p.md", "\n".join(lines) + "\n")
    project.snippet("v.py", TIES_SNIPPET)
    return project.build()


@pytest.mark.parametrize(("index", "tie", "expected"), [(i, t, e) for i, (t, e) in enumerate(TIES)])
def test_a_tie_compares_by_the_same_rules(tie_build, index, tie, expected):
    line = 6 + index
    found = [str(p) for p in tie_build.problems if p.line == line]
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(f"docs/p.md:{line}: ") and expected in found[0], found
