"""The verification page: a unique anchor for every checked value, each tie linked to its own row,
sources kept as text, the rows collapsible and filterable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from snipcheck.report.page import render
from snipcheck.report.verification import snippet_asserts, verification_page

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
    from snipkit import Project

    project = Project(tmp_path_factory.mktemp("ledger"))
    project.page("p.md", LEDGER_PAGE)
    project.page("q.md", LEDGER_PAGE.replace("# Costs", "# Other"))
    project.snippet("a.py", "n = 4\nw = [0.5, 0.5, 0.5]\nprint(w)\nprint(w)\n".replace("print(w)", "print('[0.5 0.5 0.5]')"))
    build = project.build()
    assert build.problems == []
    return build


@pytest.mark.hostile
def test_every_checked_value_has_a_unique_anchor(ledger_build):
    ledger = verification_page(ledger_build)
    ids = re.findall(r'<span id="([^"]+)"></span>', ledger)
    assert len(ids) == len(set(ids)) == len(ledger_build.checks) + len(ledger_build.citations) == 2 * (6 + 3 + 1)


@pytest.mark.hostile
def test_each_tie_links_to_its_own_row(ledger_build):
    rendered = render(ledger_build, "p.md")
    links = re.findall(r"\]\(verification\.md#([^ ]+) ", rendered)
    assert links == ["check-p-1-1", "check-p-11-1", "check-p-11-2", "cited-p-11-3"]
    ledger = verification_page(ledger_build)
    for anchor in links:
        assert f'<span id="{anchor}"></span>' in ledger


@pytest.mark.hostile
def test_a_heading_tie_renders_as_its_number_in_the_ledger(ledger_build):
    ledger = verification_page(ledger_build)
    assert "### Costs 4 tokens" in ledger and "{{" not in ledger


@pytest.mark.hostile
def test_a_pipe_dollar_or_tag_in_a_source_stays_text_in_its_table(ledger_build):
    """The row tables are HTML that Markdown passes through: nothing in a cell becomes math, a
    column or markup."""
    import markdown

    md = markdown.Markdown(
        extensions=["tables", "attr_list", "md_in_html", "pymdownx.arithmatex"], extension_configs={"pymdownx.arithmatex": {"generic": True}}
    )
    html = md.convert(verification_page(ledger_build))
    assert "<td>Smith | Jones (2020), $5 $6</td>" in html and "arithmatex" not in html
    assert html.count('<tr>\n<td><a href="../p/">Costs 4 tokens</a></td>') == 1


@pytest.mark.hostile
def test_the_ledger_is_collapsible_and_filterable(ledger_build):
    ledger = verification_page(ledger_build)
    assert ledger.count('<details class="snipcheck-rows">') == 3  # two pages, and the quotes
    assert 'id="snipcheck-filter"' in ledger and "hashchange" in ledger and "fetch(" not in ledger


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = 1\n", []),
        ("assert x > 0, 'x is positive'\n", [(1, "x > 0", "x is positive")]),
        ("assert x > 0  # x is positive\n", [(1, "x > 0", "x is positive")]),
        ("assert x > 0\n", [(1, "x > 0", "")]),
        ("assert (x >\n        0), f'x = {x}'\n", [(1, "x >\n        0", "f'x = {x}'")]),
        ("def f():\n    assert y, 'inner'\nassert z\n", [(2, "y", "inner"), (3, "z", "")]),
        ("assert x ==\n", []),  # does not parse: reported elsewhere, listed nowhere here
    ],
)
def test_a_snippets_asserts_are_read_with_line_condition_and_message(source, expected):
    assert snippet_asserts(source) == expected


NESTED = """\
class A:
    def f(self):
        assert 1, "method"
        if a:
            assert 2
        elif b:
            pass
        else:
            assert 3  # else
try:
    assert 4
except ValueError:
    assert 5
else:
    assert 6
finally:
    for i in x:
        assert 7
    else:
        assert 8
while y:
    with z:
        assert 9
match v:
    case 1:
        assert 10
async def g():
    async for i in x:
        async with z:
            assert 11
try:
    pass
except* OSError:
    assert 12
@decorated(lambda: 0)
def h():
    def inner():
        assert 13
"""


def _every_assert_line(source: str) -> list[int]:
    """An independent reading: every Assert node anywhere in the tree."""
    import ast

    return sorted(node.lineno for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Assert))


SNIPPETS = sorted((Path(__file__).resolve().parents[3] / "snippets").rglob("*.py"))


@pytest.mark.hostile
@pytest.mark.parametrize("path", [None, *SNIPPETS], ids=lambda p: "nested" if p is None else p.name)
def test_every_assert_at_any_depth_is_found(path):
    source = NESTED if path is None else path.read_text(encoding="utf-8")
    try:
        expected = _every_assert_line(source)
    except SyntaxError:
        expected = []
    assert [line for line, _, _ in snippet_asserts(source)] == expected
    assert snippet_asserts(source) == snippet_asserts(source) and snippet_asserts(source) is not snippet_asserts(source)


def test_nested_asserts_keep_their_messages():
    found = {line: message for line, _, message in snippet_asserts(NESTED)}
    assert (found[3], found[5], found[9]) == ("method", "", "else")
    assert len(found) == 13


@pytest.mark.hostile
def test_the_conditions_a_page_rests_on_are_listed_with_file_line_and_message(tmp_path):
    from snipkit import Project

    project = Project(tmp_path)
    project.page("p.md", '# P\n\n```python run="a.py"\n```\n\nIt is {{ 4 = n }}.\n')
    project.page("q.md", "# Q\n\nNo code here.\n")
    project.snippet("a.py", "n = 4\nassert n % 2 == 0, 'n is even'\nassert n > 0  # <positive>\n")
    build = project.build()
    assert build.problems == []
    ledger = verification_page(build)
    section = ledger[ledger.index("## Conditions each page rests on") : ledger.index("## Quoted from sources")]
    assert section.count("<details") == 1 and "2 conditions on" in section and "Q</a>" not in section
    assert "<code>snippets/a.py:2</code></td>\n<td><code>n % 2 == 0</code></td>\n<td>n is even</td>" in section
    assert "<code>snippets/a.py:3</code></td>\n<td><code>n &gt; 0</code></td>\n<td>&lt;positive&gt;</td>" in section
    assert "**2** conditions the code asserts" in ledger


def test_the_data_files_widgets_show_are_listed_with_their_snippet(project):
    project.page(
        "p.md",
        '# Widths\n\n```python run="w.py"\n```\n\n<div class="widget" data-widget="temperature" data-src="figures/w/t.json">\nWeights.\n</div>\n',
    )
    project.snippet("w.py", 'with open("t.json", "w") as f:\n    f.write("[0.5]")\n')
    build = project.build()
    assert build.problems == []
    text = verification_page(build)
    assert "| [figures/w/t.json](figures/w/t.json) | [Widths](p.md) | temperature | <code>snippets/w.py</code> |" in text


def test_no_data_file_no_section(ledger_build):
    assert "## Data files" not in verification_page(ledger_build)
