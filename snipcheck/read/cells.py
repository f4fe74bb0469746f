"""A snippet file split into cells, in the "percent" format of jupytext, VS Code and Spyder.

    # %% model               <- cell "model" starts here and runs to the next such line
    W = rng.normal(size=(d_model, d_k))

A marker is a comment that starts its line, ``# %% NAME`` (``#%% NAME`` too), NAME being letters,
digits, ``_`` and ``-``; a ``# %%`` inside a string is not one. A file with no marker has no
cells: it runs and is shown whole. All cells of a file run in one process, in file order, sharing
their names; a page shows each cell with ``cell="NAME"`` on a run block.

What a file's cells may not do, each reported at the snippet's own line: have code before the
first marker (it would belong to no cell), a marker without a name or with more than one word, a
name used twice, an empty cell, or a marker inside a statement (a function's body, say), which
would cut the statement in two.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

from ..kept import by_text
from ..numeric import split_lines

_MARKER = re.compile(r"^#\s?%%(?P<rest>.*)$")
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]*$")


@dataclass(frozen=True)
class Cell:
    name: str
    line: int  # 1-based: the marker's line
    end_line: int  # 1-based: the cell's last line, blank lines included
    code: str  # the lines after the marker, without the blank lines around them


@dataclass(frozen=True)
class Cells:
    cells: tuple[Cell, ...] = ()
    problems: tuple[tuple[int, str], ...] = ()  # (line of the snippet, what is wrong)

    def names(self) -> list[str]:
        """Each cell's name once, in file order."""
        return list(dict.fromkeys(cell.name for cell in self.cells))

    def get(self, name: str) -> Cell | None:
        return next((cell for cell in self.cells if cell.name == name), None)


def _marker_lines(source: str, lines: list[str]) -> list[int]:
    """1-based lines holding a ``# %%`` comment at column 0; by the tokenizer, so that a string
    that holds such a line does not count (a file it cannot read is taken line by line)."""
    try:
        comments = [
            tok.start[0]
            for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type == tokenize.COMMENT and tok.start[1] == 0 and _MARKER.match(tok.string)
        ]
    except (tokenize.TokenError, SyntaxError):
        comments = [i for i, line in enumerate(lines, start=1) if _MARKER.match(line)]
    return comments


def _statement_spans(source: str) -> list[tuple[int, int]]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    spans = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        spans.append((first, node.end_lineno or node.lineno))
    return spans


def _encode(cells: Cells) -> dict:
    return {"cells": [[c.name, c.line, c.end_line, c.code] for c in cells.cells], "problems": [list(p) for p in cells.problems]}


def _decode(data: dict) -> Cells:
    return Cells(
        tuple(Cell(str(name), int(line), int(end), str(code)) for name, line, end, code in data["cells"]),
        tuple((int(line), str(message)) for line, message in data["problems"]),
    )


@by_text("cells", encode=_encode, decode=_decode)  # read once, not once a build
def split_cells(source: str) -> Cells:
    """The cells of a snippet's source (none if it has no marker), and what is wrong with them."""
    lines = split_lines(source)
    if lines and lines[-1] == "":
        lines.pop()
    if not any(_MARKER.match(line) for line in lines):  # a marker's comment is such a line: nothing to tokenize
        return Cells()
    markers = _marker_lines(source, lines)
    if not markers:
        return Cells()
    problems: list[tuple[int, str]] = []
    before = next((i for i in range(1, markers[0]) if lines[i - 1].strip()), None)
    if before is not None:
        problems.append(
            (
                before,
                "this line comes before the first `# %% NAME` line, so it belongs to no cell and no page "
                "would show it: start the file with a `# %% NAME` line",
            )
        )
    spans = _statement_spans(source)
    cells, seen = [], {}
    for k, line in enumerate(markers):
        end = markers[k + 1] - 1 if k + 1 < len(markers) else len(lines)
        words = _MARKER.match(lines[line - 1])["rest"].split()
        inside = next(((a, b) for a, b in spans if a < line <= b), None)
        if inside is not None:
            problems.append(
                (
                    line,
                    f"this `# %%` line cuts the statement of lines {inside[0]}-{inside[1]} in two: "
                    "a cell starts between statements, at the top level",
                )
            )
            continue
        if len(words) != 1 or not _NAME.match(words[0]):
            problems.append((line, f"a cell line reads `# %% NAME`, one word of letters, digits, _ and -; not {lines[line - 1]!r}"))
            continue
        name = words[0]
        body = lines[line:end]
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        if name in seen:
            problems.append((line, f"a second cell named {name!r} (the first starts at line {seen[name]}): name each cell once"))
            continue
        seen[name] = line
        if not body:
            problems.append((line, f"cell {name!r} is empty: give it code, or remove its `# %%` line"))
        cells.append(Cell(name, line, end, "\n".join(body) + "\n" if body else ""))
    return Cells(tuple(cells), tuple(problems))


def cell_code(source: str, name: str) -> str | None:
    """The code of cell ``name`` as a page shows it, or None if the source has no such cell."""
    cell = split_cells(source).get(name)
    return cell.code if cell is not None else None
