"""How a page shows a snippet split into cells: each cell once, in the order it runs, each
output block checked against its own cell's output; anything else refused with file:line."""

from __future__ import annotations

import pytest

SNIPPET = """
# %% data
x = 2
print("x is", x)

# %% model
y = x * 3
print("y is", y)

# %% report
z = y + 1
"""


def _block(cell: str | None, output: str | None = None) -> str:
    option = f' cell="{cell}"' if cell else ""
    text = f'```python run="s.py"{option}\n```\n\n'
    return text + (f"```output\n{output}\n```\n\n" if output is not None else "")


def _problems(project, *blocks: str, snippet: str = SNIPPET) -> list[str]:
    project.snippet("s.py", snippet)
    project.page("p.md", "# P\n\n" + "".join(blocks))
    return project.problems()


GOOD = (_block("data", "x is 2"), "Then {{ 7 = z }} from a later cell.\n\n", _block("model", "y is 6"), _block("report"))


def test_every_cell_shown_once_in_order_passes_and_ties_may_name_any_cell(project):
    assert _problems(project, *GOOD) == []


def test_each_output_block_is_checked_against_its_own_cell_alone(project):
    problems = _problems(project, _block("data", "y is 6"), _block("model", "x is 2"), _block("report"))
    assert problems == [
        "docs/p.md:7: documented y is 6, computed x is 2 (snippets/s.py)",
        "docs/p.md:14: documented x is 2, computed y is 6 (snippets/s.py)",
    ]


def test_the_whole_file_may_still_be_shown_in_one_block_against_all_its_output(project):
    assert _problems(project, _block(None, "x is 2\ny is 6")) == []


def test_a_cell_that_prints_needs_its_output_block(project):
    problems = _problems(project, _block("data", "x is 2"), _block("model"), _block("report"))
    assert problems == [
        "docs/p.md:10: cell 'model' prints output that the page never documents: add an ```output block after the run block (snippets/s.py)"
    ]


@pytest.mark.hostile
def test_a_cell_never_shown_is_refused_naming_it(project):
    problems = _problems(project, _block("data", "x is 2"), _block("report"))
    assert problems == [
        "docs/p.md:3: cell 'model' (line 5 of the file) is never shown on this page, but it runs: "
        'show every cell, with a run block cell="NAME" (fold it in a ??? block if it is bookkeeping) (snippets/s.py)'
    ]


@pytest.mark.hostile
def test_a_cell_shown_twice_is_refused(project):
    problems = _problems(project, *GOOD, _block("model", "y is 6"))
    assert "docs/p.md:22: cell 'model' is shown twice on this page (first at line 12): show each cell once (snippets/s.py)" in problems


@pytest.mark.hostile
def test_the_whole_file_beside_one_of_its_cells_shows_that_cell_twice(project):
    problems = _problems(project, _block(None, "x is 2\ny is 6"), _block("model", "y is 6"))
    assert problems == ["docs/p.md:11: cell 'model' is shown twice on this page (first at line 3): show each cell once (snippets/s.py)"]


@pytest.mark.hostile
def test_cells_out_of_order_are_refused(project):
    problems = _problems(project, _block("model", "y is 6"), _block("data", "x is 2"), _block("report"))
    assert problems == [
        "docs/p.md:10: cell 'data' is shown after cell 'model', but runs before it: show the cells in the order they run (snippets/s.py)"
    ]


@pytest.mark.hostile
def test_an_unknown_cell_is_refused_with_the_names_that_exist(project):
    problems = _problems(project, *GOOD, _block("modle"))
    assert "docs/p.md:22: the file has no cell 'modle'; its cells are data, model, report (snippets/s.py)" in problems


@pytest.mark.hostile
def test_a_cell_of_a_file_without_cells_is_refused(project):
    problems = _problems(project, _block("data", "1"), snippet="print(1)\n")
    assert problems == [
        "docs/p.md:3: cell='data', but the file has no cells (no `# %% NAME` line): "
        "split it into cells, or show it whole without cell= (snippets/s.py)"
    ]


@pytest.mark.hostile
def test_a_duplicate_cell_name_is_refused_in_the_snippet(project):
    problems = _problems(project, _block("a", "1"), snippet="# %% a\nprint(1)\n# %% a\nx = 2\n")
    assert "snippets/s.py:3: a second cell named 'a' (the first starts at line 1): name each cell once" in problems


@pytest.mark.hostile
def test_an_empty_cell_is_refused(project):
    problems = _problems(project, _block("a", "1"), _block("b"), snippet="# %% a\nprint(1)\n# %% b\n\n")
    assert problems == ["snippets/s.py:3: cell 'b' is empty: give it code, or remove its `# %%` line"]


@pytest.mark.hostile
def test_a_cell_that_raises_fails_once_at_its_own_block(project):
    snippet = "# %% a\nprint(1)\n# %% b\nraise ValueError('no')\n# %% c\nx = 1\n"
    problems = _problems(project, _block("a", "1"), _block("b"), _block("c"), snippet=snippet)
    assert len(problems) == 1, problems
    assert problems[0].startswith("docs/p.md:10: snippets/s.py failed:")
    assert 'File "snippets/s.py", line 4' in problems[0] and "(in cell 'b', at snippets/s.py:4)" in problems[0]


@pytest.mark.hostile
def test_a_cells_output_documented_wrongly_is_accepted_into_its_own_block(project):
    from snipcheck import accepted_text

    project.snippet("s.py", SNIPPET)
    page = project.page("p.md", "# P\n\n" + _block("data", "x is 5") + _block("model", "y is 6") + _block("report"))
    build = project.build()
    assert accepted_text(build.docs["p.md"], build) == page.read_text().replace("x is 5", "x is 2")
