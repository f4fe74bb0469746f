"""A tie as the reader's browser gets it: the number, linked to its row, with a title that says what
computed it and how it was checked (the site shows the title on hover, focus and tap)."""

from __future__ import annotations

from html.parser import HTMLParser

import markdown
import pytest

from snipcheck.report.page import render

RUN = '```python run="s.py"\n```\n\n'
LIVE = '```python run="t.py" live\n```\n\n'


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._open = {**dict(attrs), "text": ""}
            self.links.append(self._open)

    def handle_endtag(self, tag):
        if tag == "a":
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data


def tie_links(build, page: str = "p.md") -> list[dict]:
    """The tie links of a rendered page, as Markdown (with attr_list, as the site) makes them."""
    parser = _Links()
    parser.feed(markdown.markdown(render(build, page), extensions=["attr_list", "fenced_code"]))
    return [a for a in parser.links if str(a.get("id", "")).startswith("tie-")]


@pytest.mark.parametrize(
    ("prose", "snippet", "text", "title"),
    [
        (
            "Row C is {{ 0.248 = w[2, 0] }}.",
            "import numpy as np\nw = np.full((3, 3), 0.2482)\n",
            "0.248",
            "computed by snippets/s.py: w[2,0]; checked at the printed precision",
        ),
        (
            "It has {{ (4, 4) = q.shape }}.",
            "import numpy as np\nq = np.zeros((4, 4))\n",
            "(4, 4)",
            "computed by snippets/s.py: q.shape; checked at the printed precision",
        ),
        ("Rows {{ [0.5, 0.25] = r }}.", "r = [0.5004, 0.2496]\n", "[0.5, 0.25]", "computed by snippets/s.py: r; checked at the printed precision"),
        ("Same: {{ True = same }}.", "same = True\n", "True", "computed by snippets/s.py: same; checked exactly"),
        ("Pairs: {{ 20,000 = n }}.", "n = 20000\n", "20,000", "computed by snippets/s.py: n; checked at the printed precision"),
    ],
)
def test_a_computed_tie_is_its_number_titled_with_what_computed_it(project, prose, snippet, text, title):
    project.page("p.md", f"# P\n\n{RUN}{prose}\n")
    project.snippet("s.py", snippet)
    build = project.build()
    assert build.problems == []
    [link] = tie_links(build)
    assert link["text"] == text
    assert link["class"] == "checked-number"
    assert link["title"] == title
    assert link["href"] == f"verification.md#{build.checks[0].anchor}"


def test_the_title_names_the_snippet_a_tie_names_across_pages(project):
    project.page("a.md", f"# A\n\n{RUN}")
    project.page("p.md", "# P\n\nIt is {{ 1033.0 = s:variance[4] }}.\n")
    project.snippet("s.py", "variance = [0, 0, 0, 0, 1033.04]\n")
    build = project.build()
    assert build.problems == []
    [link] = tie_links(build)
    assert link["title"] == "computed by snippets/s.py: variance[4]; checked at the printed precision"


def test_the_title_states_the_name_not_the_computed_value(project):
    """The value itself is on the verification page; the title says where it comes from."""
    project.page("p.md", f"# P\n\n{RUN}Row C is {{{{ 0.248 = w }}}}.\n")
    project.snippet("s.py", "w = 0.248173\n")
    [link] = tie_links(project.build())
    assert "0.248173" not in link["title"] and "this build" not in link["title"]


def test_a_range_tie_shows_the_measured_value_with_a_title_that_does_not_change_between_builds(project):
    """The reader sees the measured value (live-number); the title, the same in every build, names
    what measured it and the range it must lie in."""
    project.page("p.md", f"# P\n\n{LIVE}It grows {{{{ 3..5 ~ g }}}}-fold.\n")
    titles = []
    for measured in ("4.1234", "3.5"):
        project.snippet("t.py", f"g = {measured}\n")
        build = project.build()
        assert build.problems == []
        [link] = tie_links(build)
        assert (link["text"], link["class"]) == (measured[:4], "checked-number range-number")
        titles.append(link["title"])
        assert f'<span class="live-number" data-search-exclude>{measured[:4]}</span>' in render(build, "p.md")
        assert render(build, "p.md").count("3\u20135") == 1  # for search only
        assert "<span hidden>3\u20135</span>" in render(build, "p.md")
    assert titles == ["measured by snippets/t.py: g; checked to lie in [3, 5]"] * 2


def test_a_quoted_tie_is_titled_with_its_source(project):
    project.page("p.md", "# P\n\nThe base model scored {{ 27.3 @ Vaswani et al. (2017), Table 2 }} BLEU.\n")
    [link] = tie_links(project.build())
    assert (link["text"], link["class"]) == ("27.3", "cited-number")
    assert link["title"] == "quoted from Vaswani et al. (2017), Table 2"


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("source", "title"),
    [
        ('the "base" model', "quoted from the 'base' model"),  # a quote would end the attribute
        ("Table 2 | row 3", "quoted from Table 2 | row 3"),  # a pipe would split a table
        ("x" * 300, "quoted from " + "x" * 225 + "..."),  # long titles are cut
    ],
)
def test_a_title_survives_what_would_break_the_link(project, source, title):
    project.page("p.md", f"# P\n\n| a |\n|---|\n| {{{{ 27.3 @ {source} }}}} |\n")
    build = project.build()
    parser = _Links()
    parser.feed(markdown.markdown(render(build, "p.md"), extensions=["attr_list", "tables"]))
    [link] = [a for a in parser.links if str(a.get("id", "")).startswith("tie-")]
    assert link["title"] == title
