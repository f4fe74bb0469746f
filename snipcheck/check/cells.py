"""Checking how a page shows a snippet split into cells: every line of the file runs, so every
line is on the page. A page that shows any cell of a file shows each of its cells once, in the
order they run (a run block without ``cell=`` shows them all); a cell name the file does not have
is refused with the names it has. And a file's own cells must be well formed (``read/cells.py``)."""

from __future__ import annotations

from ..problems import Problem, ProblemKind
from ..read.cells import split_cells
from ..read.page import Document
from ..read.regions import RunBlock


def source_problems(sources: dict[str, str], prefix: str) -> list[Problem]:
    """What is wrong with the cells of each snippet, at the snippet's own line."""
    return [
        Problem(ProblemKind.SYNTAX, f"{prefix}/{name}", line, message)
        for name, source in sorted(sources.items())
        for line, message in split_cells(source).problems
    ]


def page_problems(doc: Document, sources: dict[str, str], prefix: str) -> list[Problem]:
    """What is wrong with how ``doc`` shows the cells of its snippets, at the page's lines."""
    by_snippet: dict[str, list[RunBlock]] = {}
    for run in doc.runs:
        by_snippet.setdefault(run.snippet, []).append(run)
    problems = []
    for name, runs in by_snippet.items():
        if name in sources:
            problems += _snippet_on_page(doc, f"{prefix}/{name}", split_cells(sources[name]), runs)
    return problems


def _snippet_on_page(doc: Document, label: str, cells, runs: list[RunBlock]) -> list[Problem]:
    problems: list[Problem] = []

    def refuse(line: int, message: str) -> None:
        problems.append(Problem(ProblemKind.SYNTAX, doc.path, line, message, label))

    names = cells.names()
    if not names:
        for run in runs:
            if run.cell is not None:
                refuse(
                    run.line,
                    f"cell={run.cell!r}, but the file has no cells (no `# %% NAME` line): split it into cells, or show it whole without cell=",
                )
        return problems
    if all(run.cell is None for run in runs):
        return problems  # shown whole, as a file without cells is
    shown: dict[str, RunBlock] = {}
    last = -1
    for run in runs:
        if run.cell is not None and run.cell not in names:
            refuse(run.line, f"the file has no cell {run.cell!r}; its cells are {', '.join(names)}")
            continue
        for cell in names if run.cell is None else [run.cell]:
            if cell in shown:
                refuse(run.line, f"cell {cell!r} is shown twice on this page (first at line {shown[cell].line}): show each cell once")
                continue
            shown[cell] = run
        if run.cell is not None:
            index = names.index(run.cell)
            if index < last:
                refuse(run.line, f"cell {run.cell!r} is shown after cell {names[last]!r}, but runs before it: show the cells in the order they run")
            last = max(last, index)
    for cell in names:
        if cell not in shown:
            refuse(
                runs[0].line,
                f"cell {cell!r} (line {cells.get(cell).line} of the file) is never shown on this page, "
                'but it runs: show every cell, with a run block cell="NAME" '
                "(fold it in a ??? block if it is bookkeeping)",
            )
    return problems
