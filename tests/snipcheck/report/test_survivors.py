"""The last line of defence: every tie a rendered page shows as written fails the build at the
source line that holds it, whatever the reader made of that line."""

from __future__ import annotations

import pytest
from snipkit import built_problems

from snipcheck.read.page import parse
from snipcheck.report.survivors import raw_ties, visible_ties

RUN = '```python run="a.py"\n```\n\n'


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("html", "shown"),
    [
        ("<p>It holds {{ 4 = x }}</p>", ["4 = x"]),
        ("<p>It holds <em>{{</em> 4 = x }}</p>", ["4 = x"]),  # split by inline markup
        ("<p>It holds &#123;&#123; 4 = x &#125;&#125;</p>", ["4 = x"]),  # character references
        ('<p title="{{ 4 @ A }}">text</p>', ["4 @ A"]),  # an attribute a browser shows
        ('<img alt="{{ 3..5 ~ t }}" src="f.svg">', ["3..5 ~ t"]),
        ("<p><code>{{ 4 = x }}</code> is code, shown as written</p>", []),
        ("<pre><code>{{ 4 = x }}</code></pre>", []),
        ("<script>const a = '{{ 4 = x }}';</script>", []),
        ('<p data-x="{{ 4 = x }}">not shown</p>', []),
        ("<p>f'{{name}}' is no tie</p>", []),
        ("<p>{{ 4 = </p><p> x }}</p>", []),  # two blocks: never read as one tie
    ],
)
def test_what_a_reader_sees_is_read_for_ties(html, shown):
    assert visible_ties(html) == shown


@pytest.mark.hostile
def test_a_survivor_is_reported_at_the_source_line_that_holds_it():
    doc = parse("# T\n\nfirst {{ 4 = x }}\n\nsecond {{ 4 = x }}\n", "docs/p.md")
    problems = raw_ties(doc, "<p>first {{ 4 = x }}</p><p>second {{  4 = x }}</p>")
    assert [p.line for p in problems] == [3, 5]
    assert str(problems[0]).startswith("docs/p.md:3: a tie shows on the page as written, unchecked: {{ 4 = x }}")


# Pages whose tie the reader reads, but Markdown does not render as a number: the build fails at
# the tie's line (the page rendered with the site's Markdown extensions, as MkDocs renders it).
NOT_A_NUMBER = [
    ("a `code span\nacross lines {{ 4 = x }}` here\n", 5),
    ("a ``two\n{{ 4 = x }} backticks`` here\n", 5),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("text", "line"), NOT_A_NUMBER)
def test_a_tie_markdown_made_code_fails_the_build_at_its_line(project, text, line):
    project.snippet("a.py", "x = 4\n")
    project.page("p.md", RUN + text)
    assert built_problems(project) == [f"docs/p.md:{line}: a tie did not render as a number (is it inside code, math, link text or raw HTML?)"]


# Where a tie may stand and does render as its checked number: nothing survives on the page.
RENDERED = [
    "!!! note\n    body {{ 4 = x }}\n",
    '??? note "T"\n    body {{ 4 = x }}\n',
    '=== "A"\n    body {{ 4 = x }}\n',
    '1. a\n\n    === "T"\n        body {{ 4 = x }}\n',
    "text[^1]\n\n[^1]: a footnote {{ 4 = x }}\n",
    "| a |\n| - |\n| {{ 4 = x }} |\n",
    "## A heading {{ 4 = x }}\n",
    "A setext heading {{ 4 = x }}\n====\n",
    "> quoted {{ 4 = x }}\n",
    "Term\n:   defined {{ 4 = x }}\n",
    'para {{ 4 = x }}\n{: title="t" }\n',
    "a <!-- c --> {{ 4 = x }}\n",
    '<span markdown="1">{{ 4 = x }}</span>\n',
    '<p markdown="1">It holds {{ 4 = x }}</p>\n',
    "a \\`{{ 4 = x }}\\` b\n",
    "```x``` is the variable; it holds {{ 4 = x }}\n",
    "~~~ not a fence {{ 4 = x }}\n",
]


@pytest.mark.hostile
@pytest.mark.parametrize("text", RENDERED)
def test_a_tie_where_markdown_renders_prose_comes_out_as_its_number(project, text):
    project.snippet("a.py", "x = 4\n")
    project.page("p.md", RUN + text)
    build = project.build()
    assert len(build.checks) == 1, [str(p) for p in build.problems]
    assert built_problems(project) == []


@pytest.mark.hostile
def test_a_tie_the_reader_cannot_see_fails_the_build_at_its_line(project):
    project.snippet("a.py", "x = 4\n")
    project.page("p.md", RUN + "prose\n\nIt holds &#123;&#123; 5 = x &#125;&#125; on the page.\n")
    assert project.build().checks == []
    [problem] = built_problems(project)
    assert problem.startswith("docs/p.md:6: a tie shows on the page as written, unchecked: {{ 5 = x }}"), problem


SHOWN = "<p>first {{ 4 = x }}</p><p><code>{{ 5 = y }}</code></p><p>second {{ 4 = x }}</p>"


@pytest.fixture
def scans(tmp_path, monkeypatch):
    """A ``Scans`` over a fresh folder, and the pages it read (``reads``) rather than took from it."""
    from snipcheck.report import survivors

    reads: list[str] = []
    read = survivors.visible_ties

    def counted(html):
        reads.append(html)
        return read(html)

    monkeypatch.setattr(survivors, "visible_ties", counted)
    return survivors.Scans(tmp_path / "scans"), reads


@pytest.mark.parametrize("html", [SHOWN, "<p>nothing shown</p>", "<p>&#123;&#123; 3 ~ t &#125;&#125;</p>", "<p>\udc80 {{ 1 = z }}</p>"])
def test_a_kept_scan_gives_what_reading_the_page_gives(scans, html):
    cache, reads = scans
    assert cache.visible_ties(html) == visible_ties(html)
    assert cache.visible_ties(html) == visible_ties(html)
    assert reads == [html]  # read once, then taken from the folder


def test_a_page_reused_from_the_folder_fails_as_it_did_when_read(scans):
    cache, reads = scans
    doc = parse("# T\n\nfirst {{ 4 = x }}\n\nsecond {{ 4 = x }}\n", "docs/p.md")
    read = [str(p) for p in raw_ties(doc, SHOWN, cache.visible_ties)]
    reused = [str(p) for p in raw_ties(doc, SHOWN, cache.visible_ties)]
    assert len(reads) == 1
    assert read == reused == [str(p) for p in raw_ties(doc, SHOWN)]
    assert [p.split(": ", 1)[0] for p in reused] == ["docs/p.md:3", "docs/p.md:5"]


def test_other_html_a_changed_scanner_or_an_unreadable_entry_is_read_again(scans, monkeypatch):
    from snipcheck.report import survivors

    cache, reads = scans
    cache.visible_ties(SHOWN)
    cache.visible_ties(SHOWN.replace("second", "third"))
    assert len(reads) == 2
    [entry, _] = sorted(cache.folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    entry.write_text('["not what the page shows"', encoding="utf-8")
    assert cache.visible_ties(SHOWN) == ["4 = x", "4 = x"]
    assert len(reads) == 3
    monkeypatch.setattr(survivors.Path, "read_bytes", lambda self: b"an edited scanner")
    assert survivors.Scans(cache.folder).key(SHOWN) != cache.key(SHOWN)


def test_entries_no_page_looked_up_since_the_last_eviction_go(scans):
    cache, _ = scans
    cache.visible_ties(SHOWN)
    cache.evict_unused()
    cache.visible_ties("<p>another page</p>")
    cache.evict_unused()
    assert [p.stem for p in cache.folder.glob("*.json")] == [cache.key("<p>another page</p>")]
