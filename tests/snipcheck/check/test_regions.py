"""Checking a range tie: the value this build measured, in its range or not, and what is not a live number refused."""

from __future__ import annotations

import re

import pytest

from snipcheck.report.page import render

RANGE_PAGE = """# Timing

```python run="t.py" live
```

It grows {{ LOW..HIGH ~ g }}-fold.
"""


@pytest.mark.hostile
@pytest.mark.parametrize(("measured", "bounds", "problem"), [
    ("4.1", "3..5", None),
    ("5", "3..5", None),  # both ends included
    ("3.0", "3..5", None),
    ("6.8", "3..5", "docs/p.md:6: documented 3..5, measured 6.8 (snippets/t.py)"),
    ("5.0000001", "3..5", "docs/p.md:6: documented 3..5, measured 5.0000001 (snippets/t.py)"),
    ("float('nan')", "3..5", "docs/p.md:6: documented 3..5, measured nan (snippets/t.py)"),
    ("\u22121.5".replace("\u2212", "-"), "\u22122..\u22121", None),
])
def test_a_range_tie_checks_the_value_this_build_measured(project, measured, bounds, problem):
    project.page("p.md", RANGE_PAGE.replace("LOW..HIGH", bounds))
    project.snippet("t.py", f"g = {measured}\n")
    build = project.build()
    assert [str(p) for p in build.problems] == ([problem] if problem else [])


@pytest.mark.hostile
def test_a_range_tie_renders_with_the_measured_part_marked(project):
    project.page("p.md", RANGE_PAGE.replace("LOW..HIGH", "3..5"))
    project.snippet("t.py", "g = 4.1234\n")
    rendered = render(project.build(), "p.md")
    assert re.search(r'\[3\u20135\]\(verification\.md#check-p-6-1 "[^"]*"\)\{ #tie-6-1 .checked-number .range-number \} '
                     r'<span class="live-number">\(measured: 4\.12\)</span>-fold', rendered), rendered


@pytest.mark.hostile
@pytest.mark.parametrize(("page", "snippet", "message"), [
    (RANGE_PAGE.replace(" live", "").replace("LOW..HIGH", "3..5"), "g = 4.0\n",
     "docs/p.md:6: a range tie checks a live measurement, and no page runs snippets/t.py live"),
    (RANGE_PAGE.replace("LOW..HIGH", "3..5"), "g = [4.0, 4.5]\n", "docs/p.md:6: a range tie needs one real number; g is an array of shape (2,)"),
    (RANGE_PAGE.replace("LOW..HIGH", "3..5"), "g = True\n", "docs/p.md:6: a range tie needs one real number; g is a boolean"),
])
def test_a_range_tie_refuses_what_is_not_a_live_number(project, page, snippet, message):
    project.page("p.md", page)
    project.snippet("t.py", snippet)
    problems = [str(p) for p in project.build().problems]
    assert len(problems) == 1 and problems[0].startswith(message), problems
