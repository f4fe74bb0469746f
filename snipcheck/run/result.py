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
    unrecorded: str | None = None  # why some of its reads cannot be recorded: it is never cached
    cells: dict[str, str] = field(default_factory=dict)  # cell name -> what it printed (a file split in cells)
    failed_cell: str = ""  # the cell that raised, if one did

    def output(self, cell: str | None = None) -> str | None:
        """What the run printed: all of it, or one cell's part (None if it ran no such cell)."""
        return self.stdout if cell is None else self.cells.get(cell)

    def figure_bytes(self, name: str) -> bytes:
        return base64.b64decode(self.figures[name])


_KINDS = {"bool": (bool,), "int": (int,), "float": (int, float), "complex": (int, float)}
_HEX = frozenset("0123456789abcdef")


def malformed(report: dict) -> str | None:
    """What is wrong with a run's result record (written by the bootstrap inside the snippet's
    process, so a snippet could overwrite it), or None: every field is checked for its type."""
    if not (report.get("error") is None or isinstance(report.get("error"), str)):
        return "its error is not text"
    if not (report.get("unrecorded") is None or isinstance(report.get("unrecorded"), str)):
        return "its note of unrecorded reads is not text"
    if not isinstance(report.get("sandbox", ""), str):
        return "its sandbox note is not text"
    for part in ("values", "reads", "listed"):
        if not isinstance(report.get(part), dict):
            return f"it has no {part}"
    for name, entry in report["values"].items():
        if not _value_ok(entry):
            return f"its value {name[:60]!r} is not a recorded value"
    for rel, entry in report["reads"].items():
        stat = entry.get("stat") if isinstance(entry, dict) else None
        if not (
            isinstance(entry, dict)
            and _digest_ok(entry.get("sha256"))
            and (stat is None or (isinstance(stat, list) and len(stat) == 4 and all(type(n) is int for n in stat)))
        ):
            return f"its read of {rel[:60]!r} is not a recorded read"
    for rel, digest in report["listed"].items():
        if not _digest_ok(digest):
            return f"its listing of {rel[:60]!r} is not a recorded listing"
    return None


def _digest_ok(digest) -> bool:
    return isinstance(digest, str) and len(digest) == 64 and set(digest) <= _HEX


def _value_ok(entry) -> bool:
    if not isinstance(entry, dict):
        return False
    if entry.get("kind") == "unavailable":
        return isinstance(entry.get("reason"), str)
    shape, kind = entry.get("shape"), entry.get("kind")
    if kind not in _KINDS or not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape):
        return False
    return entry.get("data") is None or _data_ok(entry["data"], shape, kind)


def _data_ok(data, shape: list[int], kind: str) -> bool:
    if shape:
        return isinstance(data, list) and len(data) == shape[0] and all(_data_ok(d, shape[1:], kind) for d in data)
    if kind == "complex":
        return isinstance(data, list) and len(data) == 2 and all(_data_ok(d, [], "float") for d in data)
    return isinstance(data, _KINDS[kind]) and (kind == "bool" or not isinstance(data, bool))
