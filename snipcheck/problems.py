"""The typed problems every stage of the checker reports: what went wrong, and where."""

from __future__ import annotations

import enum
from dataclasses import dataclass

MESSAGE_LIMIT = 4000  # characters of a problem's message shown; the rest is cut, and the cut says so
VALUE_LIMIT = 200  # characters of one documented or computed value shown in a message


def cut(text: str, limit: int) -> str:
    """``text`` if it is at most ``limit`` characters, else its start and how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (cut: {len(text) - limit} more characters)"


class ProblemKind(enum.Enum):
    """What went wrong. Code that treats problems differently looks at this, never at the wording."""

    DRIFT = "drift"  # a documented value differs from the computed one (accept can rewrite it)
    RANGE = "range"  # a measured value lies outside the range the page states
    SYNTAX = "syntax"  # the page's markup cannot be read
    PLACEMENT = "placement"  # a tie where it would not render (math, code, link text, raw HTML)
    REFERENCE = "reference"  # a tie names a value the snippet does not define, or cannot index it
    SNIPPET = "snippet"  # a snippet failed: raised, timed out, exited early, ran out of memory
    UNDOCUMENTED = "undocumented"  # a snippet prints output that no block documents
    FIGURE = "figure"  # a figure without alt text, never drawn, or never shown
    UNUSED = "unused"  # a snippet no page runs
    ENCODING = "encoding"  # a page or snippet that is not UTF-8
    SANDBOX = "sandbox"  # a snippet changed a file the build reads
    PROJECT = "project"  # no pages to check: the wrong folder


@dataclass(frozen=True)
class Problem:
    """Something wrong with a page, with where it is."""

    kind: ProblemKind
    path: str
    line: int
    message: str
    snippet: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", cut(self.message, MESSAGE_LIMIT))

    def __str__(self) -> str:
        where = f" ({self.snippet})" if self.snippet else ""
        return f"{self.path}:{self.line}: {self.message}{where}"
