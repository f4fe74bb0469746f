"""A snippet file split into cells: markers found by the tokenizer, code and lines of each cell,
and every malformed cell refused at the snippet's own line."""

from __future__ import annotations

from pathlib import Path

import pytest

from snipcheck.read.cells import cell_code, split_cells

SOURCE = "# %% data\nx = 1\n\n\n# %% model\n\ny = x + 1\nprint(y)\n\n"


def test_a_file_splits_at_its_markers_with_the_blank_lines_around_each_cell_dropped():
    cells = split_cells(SOURCE)
    assert cells.problems == ()
    assert [(c.name, c.line, c.end_line, c.code) for c in cells.cells] == [("data", 1, 4, "x = 1\n"), ("model", 5, 9, "y = x + 1\nprint(y)\n")]
    assert cell_code(SOURCE, "model") == "y = x + 1\nprint(y)\n"
    assert cell_code(SOURCE, "nope") is None


def test_every_line_that_is_not_a_marker_or_blank_is_in_exactly_one_cell():
    lines = SOURCE.split("\n")
    shown = [line for cell in split_cells(SOURCE).cells for line in cell.code.splitlines()]
    assert sorted(shown) == sorted(line for line in lines if line.strip() and not line.startswith("# %%"))


@pytest.mark.parametrize(
    "source", ["x = 1\nprint(x)\n", "", "# % one percent sign\n", "x = 1  # %% not at the start\n", "def f():\n    # %% indented\n    pass\n"]
)
def test_a_file_without_markers_has_no_cells(source):
    assert split_cells(source).cells == () and split_cells(source).problems == ()


@pytest.mark.hostile
def test_a_marker_inside_a_string_is_not_a_cell():
    source = '# %% one\ntext = """\n# %% two\n"""\nprint(text)\n'
    cells = split_cells(source)
    assert [c.name for c in cells.cells] == ["one"] and cells.problems == ()
    assert "# %% two" in cells.cells[0].code


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("source", "line", "message"),
    [
        ("import numpy\n# %% a\nx = 1\n", 1, "comes before the first `# %% NAME` line"),
        ("# %% a\nx = 1\n# %% a\ny = 2\n", 3, "a second cell named 'a' (the first starts at line 1)"),
        ("# %% a\n# %% b\nx = 1\n", 1, "cell 'a' is empty"),
        ("# %% a\nx = 1\n# %% b\n\n", 3, "cell 'b' is empty"),
        ("# %%\nx = 1\n", 1, "one word of letters, digits, _ and -"),
        ("# %% two words\nx = 1\n", 1, "one word"),
        ("# %% [markdown]\nx = 1\n", 1, "one word"),
        ("# %% a\ndef f():\n    x = 1\n# %% b\n    return x\n", 4, "cuts the statement of lines 2-5 in two"),
        ("# %% a\n@staticmethod\n# %% b\ndef f():\n    pass\n", 3, "cuts the statement of lines 2-5 in two"),
    ],
)
def test_a_malformed_cell_is_refused_at_its_line(source, line, message):
    problems = split_cells(source).problems
    assert any(at == line and message in text for at, text in problems), problems


def test_a_marker_without_the_space_counts_as_vs_code_writes_it():
    assert [c.name for c in split_cells("#%% a\nx = 1\n").cells] == ["a"]


def test_crlf_line_endings_count_lines_as_the_file_has_them():
    cells = split_cells("# %% a\r\nx = 1\r\n# %% b\r\ny = 2\r\n").cells
    assert [(c.name, c.line, c.code) for c in cells] == [("a", 1, "x = 1\n"), ("b", 3, "y = 2\n")]


def test_a_file_that_does_not_tokenize_is_still_split_line_by_line():
    cells = split_cells("# %% a\nx = (\n# %% b\ny = 2\n")
    assert [c.name for c in cells.cells] == ["a", "b"]


HOSTILE_MARKERS = [
    "x = 1\n",
    "# %% a\nx = 1\n",
    "x = 1  # %% not at the start of its line\n",
    's = """\n# %% inside a string\n"""\n',
    "x = 1\r# %% after a lone carriage return\ny = 2\n",
    "x = 1\r\n#%% b\r\ny = 2\r\n",
    "def f(:\n# %% in a file that does not tokenize\n",
]
SNIPPET_FILES = sorted((Path(__file__).resolve().parents[3] / "snippets").glob("*.py"))


@pytest.mark.hostile
@pytest.mark.parametrize("source", HOSTILE_MARKERS + [p.read_text(encoding="utf-8") for p in SNIPPET_FILES])
def test_a_file_without_a_marker_line_is_not_tokenized_and_one_with_markers_still_is(source):
    """The tokenizer's markers (an independent reading) are found exactly where split_cells finds cells."""
    from snipcheck.numeric import split_lines
    from snipcheck.read.cells import _marker_lines

    markers = _marker_lines(source, split_lines(source))
    cells = split_cells(source)
    assert bool(markers) == bool(cells.cells or cells.problems)
    assert {cell.line for cell in cells.cells} <= set(markers)
