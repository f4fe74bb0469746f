"""Notebooks are made from the same snippet files, and their fingerprint follows every input."""

from __future__ import annotations

import json

import nbformat
import pytest

from snipcheck.notebook import notebook_for

PAGE = '# Title\n\n```python run="a.py"\n```\n\n```python run="b.py"\n```\n'


@pytest.fixture
def built(project):
    project.page("p.md", PAGE)
    project.module("pkg/__init__.py", "")
    project.module("pkg/m.py", "X = 1\n")
    project.snippet("a.py", "from pkg.m import X\nvalue = X\n")
    project.snippet("b.py", "value = 2\n")
    return project


def _notebook(build) -> dict:
    text = notebook_for(build.docs["p.md"], "Title", "../p/", build.sources, build.results, file_name="p.ipynb")
    return json.loads(text)


def test_the_notebook_holds_each_snippet_file_verbatim_and_is_valid(built):
    build = built.build()
    nb = _notebook(build)
    nbformat.validate(nbformat.from_dict(nb))
    code = ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]
    assert code == [build.sources["a.py"].rstrip("\n"), build.sources["b.py"].rstrip("\n")]
    assert "[Download this notebook](p.ipynb)" in "".join(nb["cells"][0]["source"])


def test_the_fingerprint_changes_when_an_imported_module_changes(built):
    before = _notebook(built.build())["metadata"]["snipcheck"]["inputs"]
    assert _notebook(built.build())["metadata"]["snipcheck"]["inputs"] == before
    built.module("pkg/m.py", "X = 3\n")
    assert _notebook(built.build())["metadata"]["snipcheck"]["inputs"] != before


def test_a_page_without_snippets_has_no_notebook(project):
    project.page("p.md", "# Only prose\n")
    build = project.build()
    assert notebook_for(build.docs["p.md"], "Only prose", "../p/", build.sources, build.results) is None
