"""The page as the site shows it: a run block of one cell shows that cell's code alone."""

from __future__ import annotations

from snipcheck.report.page import render

SNIPPET = "# %% data\nx = 2\n\n# %% show\nprint(x)\n"
PAGE = '# P\n\n```python run="s.py" cell="data"\n```\n\nSome prose.\n\n```python run="s.py" cell="show"\n```\n\n```output\n2\n```\n'


def test_a_cell_block_shows_its_cell_under_the_file_and_cell_name(project):
    project.snippet("s.py", SNIPPET)
    project.page("p.md", PAGE)
    build = project.build()
    assert build.problems == []
    text = render(build, "p.md")
    assert '```python title="snippets/s.py (data)"\nx = 2\n```\n\nSome prose.' in text
    assert '```python title="snippets/s.py (show)"\nprint(x)\n```' in text
    assert "# %%" not in text


def test_every_line_of_the_file_but_its_markers_is_on_the_page(project):
    project.snippet("s.py", SNIPPET)
    project.page("p.md", PAGE)
    text = render(project.build(), "p.md")
    for line in SNIPPET.splitlines():
        if line.strip() and not line.startswith("# %%"):
            assert line in text.splitlines(), line
