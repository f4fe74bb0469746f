"""A snippet split into cells, as the run sees it: where each cell starts, for the bootstrap,
which runs the file cell by cell in one process; and each cell's part of what it printed, from
the offsets into standard output the bootstrap recorded at each cell's start and end."""

from __future__ import annotations

from pathlib import Path

from ..read.cells import split_cells


def cell_starts(path: Path) -> list[list]:
    """[[name, line of its marker], ...] of the snippet's cells; [] for a file without cells (it
    runs whole) or one that cannot be read (the run reports that)."""
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [[cell.name, cell.line] for cell in split_cells(source).cells]


def cell_outputs(stdout: bytes, report: dict | None) -> tuple[dict[str, str], str]:
    """(cell name -> what it printed, the cell that failed or ""), from the bootstrap's report."""
    report = report or {}
    outputs = {}
    for entry in report.get("cells") or []:
        try:
            name, start, end = entry
            outputs[str(name)] = stdout[int(start) : int(end)].decode("utf-8", "replace")
        except (TypeError, ValueError):
            continue
    return outputs, str(report.get("failed_cell") or "")
