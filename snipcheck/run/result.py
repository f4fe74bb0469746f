"""What one run of a snippet asks for and leaves behind, and what a round of runs did."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    """What the pages ask of one snippet: the longest timeout and memory any run block allows,
    and whether any runs it live."""

    timeout: float | None = None
    live: bool = False
    memory_mb: int | None = None


@dataclass
class Stats:
    ran: list[str] = field(default_factory=list)
    cached: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    sandbox: set[str] = field(default_factory=set)


@dataclass
class SnippetResult:
    """What one snippet did: its stdout, error, values, figures and the files it read."""

    name: str
    stdout: str = ""
    stderr: str = ""
    error: str | None = None  # a traceback, a timeout, a missing file, nondeterminism
    values: dict = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)  # file name -> base64 bytes
    imported: dict[str, str] = field(default_factory=dict)  # project file read -> sha256
    seconds: float = 0.0
    runs: int = 1  # runs that gave this same result (2: the determinism check compared two)
    from_cache: bool = False
    live: bool = False  # measured by this build (or, under serve, by this serve session)
    pending: bool = False  # under serve: still running in the background
    sandbox: list[str] = field(default_factory=list)  # protected files the run changed
    cells: dict[str, str] = field(default_factory=dict)  # cell name -> what it printed (a file split in cells)
    failed_cell: str = ""  # the cell that raised, if one did

    def output(self, cell: str | None = None) -> str | None:
        """What the run printed: all of it, or one cell's part (None if it ran no such cell)."""
        return self.stdout if cell is None else self.cells.get(cell)

    def figure_bytes(self, name: str) -> bytes:
        return base64.b64decode(self.figures[name])
