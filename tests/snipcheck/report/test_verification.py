"""The verification page: a unique anchor for every checked value, each tie linked to its own row,
sources kept as text, the rows collapsible and filterable."""

from __future__ import annotations

import re

import pytest

from snipcheck.report.page import render
from snipcheck.report.verification import verification_page

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

    md = markdown.Markdown(extensions=["tables", "attr_list", "md_in_html", "pymdownx.arithmatex"],
                           extension_configs={"pymdownx.arithmatex": {"generic": True}})
    html = md.convert(verification_page(ledger_build))
    assert "<td>Smith | Jones (2020), $5 $6</td>" in html and "arithmatex" not in html
    assert html.count('<tr>\n<td><a href="../p/">Costs 4 tokens</a></td>') == 1


@pytest.mark.hostile
def test_the_ledger_is_collapsible_and_filterable(ledger_build):
    ledger = verification_page(ledger_build)
    assert ledger.count('<details class="snipcheck-rows">') == 3  # two pages, and the quotes
    assert 'id="snipcheck-filter"' in ledger and "hashchange" in ledger and "fetch(" not in ledger


def test_the_data_files_widgets_show_are_listed_with_their_snippet(project):
    project.page("p.md", '# Widths\n\n```python run="w.py"\n```\n\n'
                 '<div class="widget" data-widget="temperature" data-src="figures/w/t.json">\nWeights.\n</div>\n')
    project.snippet("w.py", 'with open("t.json", "w") as f:\n    f.write("[0.5]")\n')
    build = project.build()
    assert build.problems == []
    text = verification_page(build)
    assert "| [figures/w/t.json](figures/w/t.json) | [Widths](p.md) | temperature | <code>snippets/w.py</code> |" in text


def test_no_data_file_no_section(ledger_build):
    assert "## Data files" not in verification_page(ledger_build)
