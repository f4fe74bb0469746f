"""Staging a build again (a build once its live snippets end, a served site's rebuild): each
page's notebooks are reused while the reading of the page and the results and sources of its
snippets are the very same, and made afresh when any of them, or an option, changed."""

from __future__ import annotations

import json

from snipcheck.report.stage import stage

PAGES = {
    "a.md": '# A\n\n```python run="a.py"\n```\n\n```output\n1\n```\n',
    "b.md": '# B\n\n```python run="b.py"\n```\n\n```output\n2\n```\n',
}


def _project(project):
    for uri, text in PAGES.items():
        project.page(uri, text)
    project.snippet("a.py", "print(1)\n")
    if not (project.root / "snippets" / "b.py").exists():
        project.snippet("b.py", "print(2)\n")
    engine = project.engine()
    engine.build()  # each later build reuses the results this one stored
    return engine


def _stdout(data: bytes) -> str:
    cells = json.loads(data)["cells"]
    return "".join(text for cell in cells for output in cell.get("outputs", []) for text in output.get("text", []))


def test_notebooks_made_of_the_same_reading_and_results_are_reused(project):
    engine = _project(project)
    first = stage(engine.build())
    again = stage(engine.build(), previous=first)
    for nb_uri in ("notebooks/a.ipynb", "notebooks/b.ipynb"):
        assert again.files[nb_uri] is first.files[nb_uri] and again.downloads[nb_uri] is first.downloads[nb_uri]


def test_a_changed_result_makes_that_page_s_notebooks_again(project):
    """Only the result changes: not the page, not the snippet, but a file the snippet reads."""
    project.module("count.txt", "2")
    project.snippet("b.py", "from pathlib import Path\n\nprint((Path(__file__).parents[1] / 'count.txt').read_text())\n")
    engine = _project(project)
    first = stage(engine.build())
    project.module("count.txt", "3")
    again = stage(engine.build(), previous=first)
    assert again.files["notebooks/a.ipynb"] is first.files["notebooks/a.ipynb"]
    assert _stdout(again.files["notebooks/b.ipynb"]) == _stdout(again.downloads["notebooks/b.ipynb"]) == "3\n"


def test_a_changed_reading_of_the_page_makes_its_notebooks_again(project):
    engine = _project(project)
    first = stage(engine.build())
    project.page("a.md", PAGES["a.md"].replace("# A", "# A, renamed"))
    again = stage(engine.build(), previous=first)
    assert b"A, renamed" in again.files["notebooks/a.ipynb"] and b"A, renamed" in again.downloads["notebooks/a.ipynb"]
    assert again.files["notebooks/b.ipynb"] is first.files["notebooks/b.ipynb"]


def test_changed_options_make_every_notebook_again(project):
    engine = _project(project)
    build = engine.build()
    first = stage(build)
    again = stage(build, previous=first, site_url="https://example.org/site/")
    assert b"https://example.org/site/" in again.downloads["notebooks/a.ipynb"]
    assert b"https://example.org/site/" not in first.downloads["notebooks/a.ipynb"]
    required = stage(build, previous=first, requires={"numpy": "numpy"})
    assert required.files["notebooks/a.ipynb"] is not first.files["notebooks/a.ipynb"]
