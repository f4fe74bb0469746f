"""A snippet split into cells runs as one process, in file order, sharing its names; each cell's
output is split out in the child; a cell that raises is named with the snippet's own line."""

from __future__ import annotations

import pytest

from snipcheck.run.cells import cell_outputs, cell_starts

CELLS = """
# %% data
import sys
x = 2
print("x is", x)

# %% quiet
y = x * 3

# %% model
print("y is", y)
sys.stdout.write("no newline")
"""


def _result(project, code: str):
    project.snippet("s.py", code)
    project.page("p.md", '```python run="s.py"\n```\n')
    return project.engine(refresh=True).build().results["s.py"]


def test_each_cell_gets_its_own_part_of_the_output_and_the_parts_make_the_whole(project):
    result = _result(project, CELLS)
    assert result.error is None
    assert result.cells == {"data": "x is 2\n", "quiet": "", "model": "y is 6\nno newline"}
    assert "".join(result.cells.values()) == result.stdout
    assert result.values["y"]["data"] == 6  # one namespace: the last cell saw the first's names


def test_a_file_without_cells_runs_whole_as_before(project):
    result = _result(project, "x = 1\nprint(x)\n")
    assert result.error is None and result.stdout == "1\n" and result.cells == {}


def test_output_written_below_python_is_split_at_the_right_cell(project):
    result = _result(
        project,
        """
        # %% a
        import os
        print("from python", flush=False)
        os.write(1, b"from the fd\\n")
        # %% b
        import subprocess, sys
        subprocess.run([sys.executable, "-c", "print('from a child')"], check=True)
        """,
    )
    assert result.error is None, result.error
    # print's buffer reaches the file after the unbuffered write, but still within cell a
    assert result.cells == {"a": "from the fd\nfrom python\n", "b": "from a child\n"}


def test_the_main_module_is_the_snippet_as_runpy_makes_it(project):
    result = _result(
        project,
        """
        # %% a
        import dataclasses, sys

        @dataclasses.dataclass
        class P:
            x: int

        # %% b
        same = sys.modules["__main__"].P is P and __name__ == "__main__" and __file__.endswith("s.py")
        print(P(3))
        """,
    )
    assert result.error is None, result.error
    assert result.cells["b"] == "P(x=3)\n" and result.values["same"]["data"] is True


@pytest.mark.hostile
def test_a_cell_that_raises_is_named_with_the_line_it_raised_at(project):
    result = _result(
        project,
        """
        # %% fine
        print("ran")

        # %% broken
        def f():
            return 1 / 0
        f()

        # %% never
        print("never runs")
        """,
    )
    assert 'File "snippets/s.py", line 6, in f' in result.error and "ZeroDivisionError" in result.error
    assert result.error.rstrip().endswith("(in cell 'broken', at snippets/s.py:6)")
    assert result.failed_cell == "broken"
    assert result.cells == {"fine": "ran\n", "broken": ""}  # the cell after it never ran


@pytest.mark.hostile
def test_a_syntax_error_in_a_later_cell_stops_the_file_before_any_cell_runs(project):
    result = _result(project, "# %% a\nprint('ran')\n# %% b\nx = (\n")
    assert "SyntaxError" in result.error and "(in cell 'b', at snippets/s.py:4)" in result.error
    assert result.stdout == ""


@pytest.mark.hostile
def test_a_cell_that_exits_is_named(project):
    result = _result(project, "# %% a\nx = 1\n# %% b\nimport sys\nsys.exit(3)\n")
    assert "sys.exit(3) at snippets/s.py:5" in result.error and "(in cell 'b', at snippets/s.py:5)" in result.error


def test_the_run_is_told_where_each_cell_starts(project):
    path = project.snippet("s.py", CELLS)
    assert cell_starts(path) == [["data", 1], ["quiet", 6], ["model", 9]]
    assert cell_starts(project.root / "snippets" / "missing.py") == []


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("report", "expected"),
    [
        ({"cells": [["a", 0, 3], ["b", 3, 6]], "failed_cell": None}, ({"a": "one", "b": "two"}, "")),
        ({"cells": [["a", None, 3], ["b", 3, 6]], "failed_cell": "b"}, ({"b": "two"}, "b")),  # an offset it could not read
        ({"cells": [["a"]]}, ({}, "")),
        (None, ({}, "")),
    ],
)
def test_a_report_is_read_defensively(report, expected):
    assert cell_outputs(b"onetwo", report) == expected
