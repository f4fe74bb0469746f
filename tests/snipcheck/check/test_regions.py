"""Checking a range tie: the value this build measured, in its range or not, and what is not a live number refused."""

from __future__ import annotations

import html
import json
import re

import pytest

from snipcheck.report.page import render

RANGE_PAGE = """# Timing

```python run="t.py" live
```

It grows {{ LOW..HIGH ~ g }}-fold.
"""


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("measured", "bounds", "problem"),
    [
        ("4.1", "3..5", None),
        ("5", "3..5", None),  # both ends included
        ("3.0", "3..5", None),
        ("6.8", "3..5", "docs/p.md:6: documented 3..5, measured 6.8 (snippets/t.py)"),
        ("5.0000001", "3..5", "docs/p.md:6: documented 3..5, measured 5.0000001 (snippets/t.py)"),
        ("float('nan')", "3..5", "docs/p.md:6: documented 3..5, measured nan (snippets/t.py)"),
        ("\u22121.5".replace("\u2212", "-"), "\u22122..\u22121", None),
    ],
)
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
    assert re.search(
        r'\[<span class="live-number" data-search-exclude>4\.12</span>\]\(verification\.md#check-p-6-1 "[^"]*"\)'
        r"\{ #tie-6-1 .checked-number .range-number \}<span hidden>3\u20135</span>-fold",
        rendered,
    ), rendered


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("page", "snippet", "message"),
    [
        (
            RANGE_PAGE.replace(" live", "").replace("LOW..HIGH", "3..5"),
            "g = 4.0\n",
            "docs/p.md:6: a range tie checks a live measurement, and no page runs snippets/t.py live",
        ),
        (RANGE_PAGE.replace("LOW..HIGH", "3..5"), "g = [4.0, 4.5]\n", "docs/p.md:6: a range tie needs one real number; g is an array of shape (2,)"),
        (RANGE_PAGE.replace("LOW..HIGH", "3..5"), "g = True\n", "docs/p.md:6: a range tie needs one real number; g is a boolean"),
    ],
)
def test_a_range_tie_refuses_what_is_not_a_live_number(project, page, snippet, message):
    project.page("p.md", page)
    project.snippet("t.py", snippet)
    problems = [str(p) for p in project.build().problems]
    assert len(problems) == 1 and problems[0].startswith(message), problems


# -- widgets: a data file a snippet of the page wrote ---------------------------------------------
DATA_SNIPPET = 'import json\nwith open("t.json", "w") as f:\n    json.dump(DATA, f)\n'
OUTSIDE = " must name a .json file in the figures folder (figures/SNIPPET/FILE, a file a snippet of this page writes)"
WIDGET_PAGE = """# Temperature

```python run="w.py"
```

<div class="widget" data-widget="temperature" data-src="SRC">
The weights of one query's keys at each width.
</div>
"""


def _widget_project(project, data="{'w': [0.25, 0.75]}", src="figures/w/t.json", page=WIDGET_PAGE):
    project.page("p.md", page.replace("SRC", src))
    project.snippet("w.py", DATA_SNIPPET.replace("DATA", data))
    return project.build()


def test_a_widget_embeds_its_checked_data_after_its_div(project):
    build = _widget_project(project)
    assert build.problems == []
    text = render(build, "p.md")
    assert (
        '</div>\n\n<div class="widget-data" hidden data-src="figures/w/t.json" '
        """data-values='{"w":[0.25,0.75]}'></div>\n"""
    ) in text


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("data", "src", "problem"),
    [
        (
            "{'w': float('nan')}",
            "figures/w/t.json",
            "docs/p.md:6: widget figures/w/t.json: t.json holds NaN, which is not JSON (write finite numbers only) (snippets/w.py)",
        ),
        (
            "{'w': [1, float('inf')]}",
            "figures/w/t.json",
            "docs/p.md:6: widget figures/w/t.json: t.json holds Infinity, which is not JSON (write finite numbers only) (snippets/w.py)",
        ),
        (
            "{'w': 1}",
            "figures/w/other.json",
            "docs/p.md:6: widget figures/w/other.json shows other.json, which snippets/w.py did not write (snippets/w.py)",
        ),
        (
            "{'w': 1}",
            "figures/x/t.json",
            "docs/p.md:6: widget figures/x/t.json shows a file of snippets/x.py, which this page does not run: "
            "add a run block for it (snippets/x.py)",
        ),
        ("{'w': 1}", "../../etc/t.json", "docs/p.md:6: widget data-src='../../etc/t.json'" + OUTSIDE),
        ("{'w': 1}", "figures/../../t.json", "docs/p.md:6: widget data-src='figures/../../t.json'" + OUTSIDE),
        ("{'w': 1}", "figures/w/t.svg", "docs/p.md:6: widget data-src='figures/w/t.svg'" + OUTSIDE),
    ],
)
def test_a_widget_whose_data_is_not_a_checked_file_of_its_page_fails(project, data, src, problem):
    build = _widget_project(project, data, src)
    assert problem in [str(p) for p in build.problems]
    assert 'class="widget-data"' not in render(build, "p.md")


@pytest.mark.hostile
def test_invalid_json_a_snippet_wrote_fails_at_the_widget(project):
    project.page("p.md", WIDGET_PAGE.replace("SRC", "figures/w/t.json"))
    project.snippet("w.py", 'with open("t.json", "w") as f:\n    f.write("{\\"w\\": [0.5,")\n')
    assert project.problems() == [
        "docs/p.md:6: widget figures/w/t.json: t.json is not valid JSON: Expecting value at line 1, column 12 (snippets/w.py)"
    ]


@pytest.mark.hostile
def test_a_widget_without_a_text_alternative_fails(project):
    page = WIDGET_PAGE.replace("The weights of one query's keys at each width.\n", "<span></span>\n")
    build = _widget_project(project, page=page)
    assert [str(p) for p in build.problems] == ["docs/p.md:6: widget figures/w/t.json has no text alternative: say inside the div what it shows"]


@pytest.mark.hostile
def test_a_data_file_no_widget_shows_fails(project):
    project.page("p.md", '# P\n\n```python run="w.py"\n```\n')
    project.snippet("w.py", DATA_SNIPPET.replace("DATA", "[1]"))
    assert project.problems() == ["snippets/w.py:1: draws t.json, but no page shows figures/w/t.json"]


@pytest.mark.hostile
def test_a_widget_on_another_page_than_its_snippet_fails(project):
    project.page("a.md", '# A\n\n```python run="w.py"\n```\n')
    _widget_project(project, page=WIDGET_PAGE.replace('```python run="w.py"\n```\n', ""))
    assert project.problems() == [
        "docs/p.md:4: widget figures/w/t.json shows a file of snippets/w.py, which this page does not run: add a run block for it (snippets/w.py)"
    ]


@pytest.mark.hostile
def test_a_quote_or_ampersand_in_the_data_cannot_leave_its_attribute(project):
    build = _widget_project(project, data="{'w': \"it's <b> & '\"}")
    assert build.problems == []
    line = next(x for x in render(build, "p.md").split("\n") if 'class="widget-data"' in x)
    values = re.search(r"data-values='([^']*)'", line)[1]
    assert json.loads(html.unescape(values)) == {"w": "it's <b> & '"} and line.endswith("></div>")
