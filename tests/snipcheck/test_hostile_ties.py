"""Hostile ties: malformed braces, names that are not names, ties where they would not render,
and the ledger they land on (unique anchors, escaped cells, heading ties, range ties)."""

from __future__ import annotations

import re

import pytest
from conftest import page_problems

from snipcheck.report.page import render
from snipcheck.report.verification import verification_page

RUN = '```python run="a.py"\n```\n\n'

# (page text, the line of the problem, what the message says)
REFUSED = [
    (RUN + "x {{ {{ 1 = x }} }}\n", 4, "a tie cannot hold another tie"),
    (RUN + "x {{{ 1 = x }}}\n", 4, "'{{{' is not a tie"),
    (RUN + "x {{ 1 = x }}} y\n", 4, "'}}}' closes no tie"),
    (RUN + "x {{1=x}}\n", 4, "put spaces around the operator"),
    (RUN + 'x {{ 1 = x["a"] }}\n', 4, "a name cannot hold a string"),
    (RUN + "x {{ 1 = x['a'] }}\n", 4, "a name cannot hold a string"),
    (RUN + "x {{ 1 = x.sum() }}\n", 4, "cannot read the name 'x.sum()'"),
    (RUN + "x {{ 1 = x[1:2] }}\n", 4, "index with integers"),
    (RUN + "x {{ 1 = ..:x }}\n", 4, "cannot read the snippet name"),
    (RUN + "x {{ about 5 = x }}\n", 4, "cannot read the documented value 'about 5'"),
    (RUN + "x {{ 5 or 6 = x }}\n", 4, "cannot read the documented value '5 or 6'"),
    (RUN + "x {{ [1, 2 = x }}\n", 4, "']' is missing"),
    (RUN + "x {{ 0x10 = x }}\n", 4, "cannot read the documented value '0x10'"),
    (RUN + "x {{ = x }}\n", 4, "both sides of '=' must be written"),
    (RUN + "x {{ 1 = }}\n", 4, "both sides of '=' must be written"),
    (RUN + "x {{ 1 @ }}\n", 4, "both sides of '@' must be written"),
    (RUN + "x {{ 1 = x\n", 4, "'{{' opens no tie (no '}}' on its line)"),
    (RUN + "see [the value {{ 1 = x }}](https://example.org)\n", 4, "inside link text"),
    (RUN + "![a {{ 1 = x }} plot](figures/a/f.svg)\n", 4, "inside link text"),
    (RUN + "[a](https://example.org/{{ 1 = x }})\n", 4, "inside a link's address"),
    (RUN + "[ref {{ 1 = x }}][1]\n", 4, "inside link text"),
    (RUN + "with \\( d = {{ 1 = x }} \\) here\n", 4, "inside math"),
    (RUN + "with $d_k = {{ 1 = x }}$ here\n", 4, "inside math"),
    (RUN + "\\[ d = {{ 1 = x }} \\]\n", 4, "inside display math"),
    (RUN + "$$\nd = {{ 1 = x }}\n$$\n", 5, "inside display math"),
    (RUN + "\\[\nd = {{ 1 = x }}\n\\]\n", 5, "inside display math"),
    (RUN + '<span title="{{ 1 = x }}">a</span>\n', 4, "inside an HTML tag"),
    (RUN + "<div>\n{{ 1 = x }}\n</div>\n", 5, "inside a raw HTML block"),
    (RUN + "<table><tr><td>{{ 1 = x }}</td></tr></table>\n", 4, "inside a raw HTML block"),
    (RUN + "prose\n\n    {{ 1 = x }} indented by mistake\n", 6, "in an indented code block"),
    (RUN + '!!! note "Costs {{ 1 = x }}"\n    body\n', 4, "in an admonition or tab title"),
    (RUN + '=== "Tab {{ 1 = x }}"\n    body\n', 4, "in an admonition or tab title"),
    ('---\ntitle: "{{ 1 = a:x }}"\n---\n# T\n', 2, "in the front matter"),
    (RUN + "x {{ 5..3 ~ x }}\n", 4, "the range '5..3' is empty"),
    (RUN + "x {{ a..5 ~ x }}\n", 4, "'a' is not a number"),
    (RUN + "x {{ 3 ~ x }}\n", 4, "cannot read the range '3'"),
    (RUN + "x {{ 1..nan ~ x }}\n", 4, "'nan' is not a number"),
    (RUN + 'x {{ 3..5 ~ x["a"] }}\n', 4, "a name cannot hold a string"),
    ("x {{ 1 = x }}\n", 1, "has no run block above it"),
    ('```python run="../attn/core.py"\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run="/etc/passwd"\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run="sub/../../x.py"\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run=""\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run="a.py" timeout=0\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=-5\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=nan\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=inf\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=1e400\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" memory=lots\n```\n', 1, "memory must be a whole number of MiB"),
    ('```python run="a.py" memory=0\n```\n', 1, "memory must be a whole number of MiB"),
]


@pytest.mark.parametrize(("text", "line", "message"), REFUSED)
def test_a_malformed_or_misplaced_tie_is_refused_at_its_line(text, line, message):
    problems = page_problems(text)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"docs/p.md:{line}: ") and message in problems[0], problems


# Pages that must parse without a problem, and the ties they hold as (line, documented).
ACCEPTED = [
    (RUN + "costs $5 and {{ 1 = x }} and $6\n", [(4, "1")]),  # not math for arithmatex
    (RUN + "{{ 1 = a }} and {{ 2 = b }}\n", [(4, "1"), (4, "2")]),
    (RUN + '!!! note "Title"\n    body with {{ 1 = x }}\n', [(5, "1")]),
    (RUN + '!!! note\n\n    body with {{ 1 = x }}\n', [(6, "1")]),
    (RUN + "- item\n\n    continued {{ 1 = x }}\n", [(6, "1")]),
    (RUN + "<div markdown>\n{{ 1 = x }}\n</div>\n", [(5, "1")]),
    (RUN + "a `{{ 1 = x }}` code span is text\n", []),
    (RUN + "```text\n{{ 1 = x }} in a fenced block is code\n```\n", []),
    (RUN + "# Heading {{ 1 = x }}\n", [(4, "1")]),
    (RUN + "| a | b |\n| - | - |\n| {{ 1 = x }} | {{ 2 @ A | B }} |\n", [(6, "1"), (6, "2")]),
    (RUN + "<!-- {{ 1 = x }} in a comment -->\n", []),
    (RUN + "[link](u) then {{ 1 = x }}\n", [(4, "1")]),
    (RUN + "a \\$5 and {{ 1 = x }}\n", [(4, "1")]),
]


@pytest.mark.parametrize(("text", "ties"), ACCEPTED)
def test_a_tie_where_it_renders_is_read(text, ties):
    from snipcheck.read.page import parse

    doc = parse(text, "docs/p.md")
    assert [str(p) for p in doc.problems] == []
    assert [(t.line, t.documented) for t in doc.ties] == ties


def test_a_bad_tie_does_not_swallow_the_next_one_on_its_line():
    from snipcheck.read.page import parse

    doc = parse(RUN + "{{ bad }} and {{ 2 = b }}\n", "docs/p.md")
    assert [str(p) for p in doc.problems] == [
        "docs/p.md:4: cannot read '{{ bad }}': write {{ NUMBER = NAME }}, {{ NUMBER @ SOURCE }} or {{ LOW..HIGH ~ NAME }}"]
    assert [(t.documented, t.ref.expr) for t in doc.ties] == [("2", "b")]


# -- the ledger ---------------------------------------------------------------------------------------

LEDGER_PAGE = """# Costs {{ 4 = a:n }} tokens

```python run="a.py"
```

```output
[0.5 0.5 0.5]
[0.5 0.5 0.5]
```

Twice on one line: {{ 0.5 = w[0] }} and {{ 0.5 = w[0] }}, quoted {{ 3 @ Smith | Jones (2020), $5 $6 }}.
"""


@pytest.fixture(scope="module")
def ledger_build(tmp_path_factory):
    from conftest import Project

    project = Project(tmp_path_factory.mktemp("ledger"))
    project.page("p.md", LEDGER_PAGE)
    project.page("q.md", LEDGER_PAGE.replace("# Costs", "# Other"))
    project.snippet("a.py", "n = 4\nw = [0.5, 0.5, 0.5]\nprint(w)\nprint(w)\n".replace("print(w)", "print('[0.5 0.5 0.5]')"))
    build = project.build()
    assert build.problems == []
    return build


def test_every_checked_value_has_a_unique_anchor(ledger_build):
    ledger = verification_page(ledger_build)
    ids = re.findall(r'<span id="([^"]+)"></span>', ledger)
    assert len(ids) == len(set(ids)) == len(ledger_build.checks) + len(ledger_build.citations) == 2 * (6 + 3 + 1)


def test_each_tie_links_to_its_own_row(ledger_build):
    rendered = render(ledger_build, "p.md")
    links = re.findall(r"\]\(verification\.md#([^ ]+) ", rendered)
    assert links == ["check-p-1-1", "check-p-11-1", "check-p-11-2", "cited-p-11-3"]
    ledger = verification_page(ledger_build)
    for anchor in links:
        assert f'<span id="{anchor}"></span>' in ledger


def test_a_heading_tie_renders_as_its_number_in_the_ledger(ledger_build):
    ledger = verification_page(ledger_build)
    assert "### Costs 4 tokens" in ledger and "{{" not in ledger


def test_a_pipe_dollar_or_tag_in_a_source_stays_text_in_its_table(ledger_build):
    """The row tables are HTML that Markdown passes through: nothing in a cell becomes math, a
    column or markup."""
    import markdown

    md = markdown.Markdown(extensions=["tables", "attr_list", "md_in_html", "pymdownx.arithmatex"],
                           extension_configs={"pymdownx.arithmatex": {"generic": True}})
    html = md.convert(verification_page(ledger_build))
    assert "<td>Smith | Jones (2020), $5 $6</td>" in html and "arithmatex" not in html
    assert html.count('<tr>\n<td><a href="../p/">Costs 4 tokens</a></td>') == 1


def test_the_ledger_is_collapsible_and_filterable(ledger_build):
    ledger = verification_page(ledger_build)
    assert ledger.count('<details class="snipcheck-rows">') == 3  # two pages, and the quotes
    assert 'id="snipcheck-filter"' in ledger and "hashchange" in ledger and "fetch(" not in ledger


RANGE_PAGE = """# Timing

```python run="t.py" live
```

It grows {{ LOW..HIGH ~ g }}-fold.
"""


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


def test_a_range_tie_renders_with_the_measured_part_marked(project):
    project.page("p.md", RANGE_PAGE.replace("LOW..HIGH", "3..5"))
    project.snippet("t.py", "g = 4.1234\n")
    rendered = render(project.build(), "p.md")
    assert re.search(r'\[3\u20135\]\(verification\.md#check-p-6-1 "[^"]*"\)\{ #tie-6-1 .checked-number .range-number \} '
                     r'<span class="live-number">\(this build: 4\.12\)</span>-fold', rendered), rendered


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
