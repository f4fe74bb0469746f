"""Notebooks are made from the same snippet files and show the outputs of their verified runs."""

from __future__ import annotations

import base64
import json

import nbformat
import pytest

from snipcheck.report.notebook import imported_modules, install_cell, notebook_for
from snipcheck.report.stage import stage
from snipcheck.report.urls import download_url, link, page_url

PAGE = '# Title\n\n```python run="a.py"\n```\n\n```output\n1\n```\n\n```python run="b.py"\n```\n\n![Two bars](figures/b/bars.svg)\n'


@pytest.fixture
def built(project):
    project.page("p.md", PAGE)
    project.module("pkg/__init__.py", "")
    project.module("pkg/m.py", "X = 1\n")
    project.snippet("a.py", "from pkg.m import X\nvalue = X\nprint(value)\n")
    project.snippet(
        "b.py",
        """
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots()
        ax.bar([0, 1], [1, 2])
        fig.savefig("bars.svg")
        """,
    )
    return project


def _notebook(build) -> dict:
    text = notebook_for(build.docs["p.md"], "Title", "../p/", build.sources, build.results, file_name="p.ipynb")
    return json.loads(text)


def _code_cells(nb: dict) -> list[dict]:
    return [cell for cell in nb["cells"] if cell["cell_type"] == "code"]


def test_the_notebook_holds_each_snippet_file_verbatim_and_is_valid(built):
    build = built.build()
    nb = _notebook(build)
    nbformat.validate(nbformat.from_dict(nb))
    code = ["".join(cell["source"]) for cell in _code_cells(nb)]
    assert code == [build.sources["a.py"].rstrip("\n"), build.sources["b.py"].rstrip("\n")]
    assert "[Download this notebook](p.ipynb)" in "".join(nb["cells"][0]["source"])


def test_each_cell_shows_what_its_verified_run_printed_and_drew(built):
    build = built.build()
    assert build.problems == []
    first, second = _code_cells(_notebook(build))
    assert first["outputs"] == [{"name": "stdout", "output_type": "stream", "text": ["1\n"]}]
    assert first["execution_count"] == 1 and second["execution_count"] == 2
    [figure] = second["outputs"]
    assert figure["output_type"] == "display_data"
    svg = "".join(figure["data"]["image/svg+xml"])
    assert svg.encode() == build.results["b.py"].figure_bytes("bars.svg") and svg.lstrip().startswith("<?xml")
    assert first["metadata"]["snipcheck"] == {"snippet": "snippets/a.py"}


def test_a_png_figure_is_stored_as_base64_and_other_files_are_not_images(project):
    project.page("p.md", '# P\n\n```python run="s.py"\n```\n\n![A dot](figures/s/dot.png)\n')
    project.snippet(
        "s.py",
        """
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(1, 1))
        fig.savefig("dot.png")
        """,
    )
    build = project.build()
    [cell] = _code_cells(json.loads(notebook_for(build.docs["p.md"], "P", "../p/", build.sources, build.results)))
    [figure] = cell["outputs"]
    assert base64.b64decode(figure["data"]["image/png"]).startswith(b"\x89PNG")


def test_the_notebook_follows_a_change_in_an_imported_module(built):
    before = _notebook(built.build())
    assert _notebook(built.build()) == before
    built.module("pkg/m.py", "X = 3\n")
    after = _notebook(built.build())
    assert _code_cells(after)[0]["outputs"][0]["text"] == ["3\n"]


def test_a_live_cell_is_marked_stores_no_measurement_and_says_so(project):
    project.page("p.md", '# P\n\n```python run="clock.py" live\n```\n')
    project.snippet("clock.py", "import time\nprint(time.perf_counter())\n")
    texts = []
    for _ in range(2):
        build = project.build()
        texts.append(notebook_for(build.docs["p.md"], "P", "../p/", build.sources, build.results))
    assert texts[0] == texts[1]  # two builds measured different times; the notebook is the same
    nb = json.loads(texts[0])
    [cell] = _code_cells(nb)
    assert cell["metadata"]["snipcheck"] == {"snippet": "snippets/clock.py", "live": True}
    assert cell["outputs"] == []
    assert "no output is stored here" in "".join(nb["cells"][-2]["source"])


def test_a_page_without_snippets_has_no_notebook(project):
    project.page("p.md", "# Only prose\n")
    build = project.build()
    assert notebook_for(build.docs["p.md"], "Only prose", "../p/", build.sources, build.results) is None
    assert stage(build).notebooks == {}


def test_a_page_whose_snippet_failed_gets_no_notebook(project):
    project.page("ok.md", '# OK\n\n```python run="ok.py"\n```\n')
    project.page("bad.md", '# Bad\n\n```python run="bad.py"\n```\n')
    project.snippet("ok.py", "x = 1\n")
    project.snippet("bad.py", "raise ValueError('no')\n")
    assert stage(project.build()).notebooks == {"ok.md": "notebooks/ok.ipynb"}


@pytest.mark.parametrize(
    "uri, directory_urls, url",
    [
        ("index.md", True, ""),
        ("02-x.md", True, "02-x/"),
        ("a/index.md", True, "a/"),
        ("a/b.md", True, "a/b/"),
        ("02-x.md", False, "02-x.html"),
        ("notebooks/02-x.ipynb", True, "notebooks/02-x/"),
    ],
)
def test_page_urls_are_the_ones_mkdocs_gives(uri, directory_urls, url):
    assert page_url(uri, directory_urls) == url


@pytest.mark.parametrize(
    "directory_urls, site_url, expected",
    [
        (True, "", "../../02-x/"),
        (False, "", "../02-x.html"),
        (True, "https://example.org/sub/", "https://example.org/sub/02-x/"),
        (True, "https://example.org/sub", "https://example.org/sub/02-x/"),
    ],
)
def test_a_notebook_links_to_its_page_relatively_or_under_the_site_url(directory_urls, site_url, expected):
    assert link("notebooks/02-x.ipynb", "02-x.md", directory_urls, site_url) == expected
    assert link("notebooks/index.ipynb", "index.md", True, "") == "../"


def test_imported_modules_are_the_top_level_names_of_absolute_imports():
    sources = ["import numpy as np\nimport a.b.c, d\nfrom e.f import g\nfrom . import h\n", "def f():\n    import inner\n", "this is not python ("]
    assert imported_modules(sources) == {"numpy", "a", "d", "e", "inner"}


def test_the_downloaded_notebook_links_absolutely_and_installs_what_its_snippets_import(built):
    build = built.build()
    requires = {"matplotlib": "matplotlib", "pkg": "https://example.org/sub/downloads/pkg-1.0-py3-none-any.whl", "scipy": "scipy"}
    staged = stage(build, site_url="https://example.org/sub/", requires=requires)
    shown = json.loads(staged.files["notebooks/p.ipynb"])
    downloaded = json.loads(staged.downloads["notebooks/p.ipynb"])
    intro = "".join(downloaded["cells"][0]["source"])
    assert "[Title](https://example.org/sub/p/)" in intro
    assert "[Download this notebook](https://example.org/sub/notebooks/p/p.ipynb) (`p.ipynb`)" in intro
    assert "[Title](../../p/)" in "".join(shown["cells"][0]["source"])  # on the site: relative
    for nb in (shown, downloaded):
        nbformat.validate(nbformat.from_dict(nb))
        setup = _code_cells(nb)[0]
        assert setup["metadata"] == {"snipcheck": {"setup": True}} and setup["outputs"] == []
        source = "".join(setup["source"])
        assert "('pkg', 'https://example.org/sub/downloads/pkg-1.0-py3-none-any.whl')" in source
        assert "('matplotlib', 'matplotlib')" in source and "scipy" not in source  # no snippet imports scipy
        compile(source.replace("%pip", "pass  #"), "setup", "exec")  # Python but for IPython's %pip line
    assert [c["metadata"]["snipcheck"] for c in _code_cells(downloaded)[1:]] == [{"snippet": "snippets/a.py"}, {"snippet": "snippets/b.py"}]


def test_no_requirement_imported_means_no_setup_cell(built):
    assert install_cell({}) is None
    nb = json.loads(stage(built.build(), requires={"scipy": "scipy"}).files["notebooks/p.ipynb"])
    assert [c["metadata"]["snipcheck"] for c in _code_cells(nb)] == [{"snippet": "snippets/a.py"}, {"snippet": "snippets/b.py"}]


@pytest.mark.parametrize(
    "directory_urls, site_url, expected",
    [
        (True, "", "p.ipynb"),
        (True, "https://example.org/sub/", "https://example.org/sub/notebooks/p/p.ipynb"),
        (False, "https://example.org/sub", "https://example.org/sub/notebooks/p.ipynb"),
    ],
)
def test_a_notebook_is_downloaded_from_beside_its_page(directory_urls, site_url, expected):
    assert download_url("notebooks/p.ipynb", directory_urls, site_url) == expected


CELL_PAGE = (
    '# T\n\n```python run="c.py" cell="data"\n```\n\n```output\nx is 2\n```\n\n'
    '```python run="c.py" cell="plot"\n```\n\n```output\ndrawn\n```\n\n![Bars](figures/c/bars.svg)\n'
)
CELL_SNIPPET = """
# %% data
x = 2
print("x is", x)

# %% plot
import matplotlib.pyplot as plt

fig, ax = plt.subplots()
ax.bar([0, 1], [1, x])
fig.savefig("bars.svg")
print("drawn")
"""


def test_a_snippet_in_cells_gives_one_notebook_cell_per_snippet_cell_with_its_own_output(project):
    project.page("p.md", CELL_PAGE)
    project.snippet("c.py", CELL_SNIPPET)
    build = project.build()
    assert build.problems == []
    nb = json.loads(notebook_for(build.docs["p.md"], "T", "../p/", build.sources, build.results))
    code = _code_cells(nb)
    assert [c["metadata"]["snipcheck"] for c in code] == [{"snippet": "snippets/c.py", "cell": "data"}, {"snippet": "snippets/c.py", "cell": "plot"}]
    assert [c["execution_count"] for c in code] == [1, 2]
    assert "".join(code[0]["source"]) == 'x = 2\nprint("x is", x)'
    assert "# %%" not in "".join(code[1]["source"])
    streams = [[o["text"] for o in c["outputs"] if o["output_type"] == "stream"] for c in code]
    assert streams == [[["x is 2\n"]], [["drawn\n"]]]
    assert [o["output_type"] for o in code[0]["outputs"]] == ["stream"]  # the figure goes with the last cell
    assert [o["output_type"] for o in code[1]["outputs"]] == ["stream", "display_data"]
    nbformat.validate(nbformat.reads(json.dumps(nb), as_version=4))


FIGURE_CELLS_SNIPPET = """\
# %% draw
import matplotlib.pyplot as plt

fig, ax = plt.subplots()
ax.plot([0, 1])
fig.savefig("first.svg")
# %% more
fig.savefig("second.svg")
name = "computed" + ".svg"
fig.savefig(name)
# %% report
fig.clf()
"""


def test_each_figure_goes_with_the_cell_that_saves_it_by_name(project):
    """A figure saved by a name written in a cell shows under that cell; one whose name is computed
    at run time shows under the last cell, which runs after it is drawn."""
    page = '# T\n\n```python run="f.py" cell="draw"\n```\n\n```python run="f.py" cell="more"\n```\n\n'
    page += '```python run="f.py" cell="report"\n```\n\n![a](figures/f/first.svg)\n![b](figures/f/second.svg)\n'
    page += "![c](figures/f/computed.svg)\n"
    project.page("p.md", page)
    project.snippet("f.py", FIGURE_CELLS_SNIPPET)
    build = project.build()
    assert build.problems == []
    nb = json.loads(notebook_for(build.docs["p.md"], "T", "../p/", build.sources, build.results))
    shown = [[o["data"]["text/plain"][0] for o in c["outputs"] if o["output_type"] == "display_data"] for c in _code_cells(nb)]
    assert shown == [["<figure first.svg>"], ["<figure second.svg>"], ["<figure computed.svg>"]]
