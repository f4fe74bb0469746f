"""The data model: every construct on a page is one region, read once.

A region is plain data: its span on the page (lines, and columns for a tie) and its parsed
content (the snippet a run block names, the numbers an output block documents, a tie's documented
value with its kind and the reference it names). Each later stage handles each region type once,
through its own registry (``snipcheck.dispatch``): checking (``check/regions.py``), rendering
(``report/page.py``) and accepting a change (``report/accept.py``). Nothing re-derives what a page
contains.

The regions: ``RunBlock``, ``OutputBlock``, ``ComputedTie`` (``{{ 0.248 = NAME }}``),
``QuotedTie`` (``{{ 27.3 @ SOURCE }}``), ``RangeTie`` (``{{ 3..5 ~ NAME }}``), ``Figure`` and
``Widget`` (a raw ``<div class="widget">`` that shows a data file a snippet wrote).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..numeric import Number, Token
from ..values.computed import Reference
from ..values.documented import DocumentedValue


class RegionKind(enum.Enum):
    RUN = "run block"
    OUTPUT = "output block"
    COMPUTED_TIE = "computed tie"
    QUOTED_TIE = "quoted tie"
    RANGE_TIE = "range tie"
    FIGURE = "figure"
    WIDGET = "widget"


# eq=False: a region is itself (it hashes by identity), so the outcomes of a check are keyed by it.
@dataclass(eq=False)
class Region:
    kind = RegionKind.RUN
    line: int  # 1-based, the first line
    end_line: int  # 1-based, the last line


@dataclass(eq=False)
class OutputBlock(Region):
    kind = RegionKind.OUTPUT
    indent: str = ""
    fence: str = "```"
    text: str = ""
    tokens: tuple[Token, ...] = ()
    run: RunBlock | None = None

    @property
    def first_text_line(self) -> int:
        return self.line + 1


@dataclass(eq=False)
class RunBlock(Region):
    kind = RegionKind.RUN
    indent: str = ""
    fence: str = "```"
    language: str = "python"
    snippet: str = ""
    timeout: float | None = None
    memory_mb: int | None = None
    live: bool = False
    cell: str | None = None  # cell="NAME": only that cell of the snippet (see read/cells.py)
    output: OutputBlock | None = None


@dataclass(eq=False)
class Tie(Region):
    """``{{ DOCUMENTED OP REF }}`` on one line."""

    start: int = 0  # column span of the whole {{ ... }} in its line
    end: int = 0
    doc_start: int = 0  # column span of the documented text
    doc_end: int = 0
    documented: str = ""
    position: int = 1  # 1-based, among the ties of its line

    @property
    def op(self) -> str:
        return {RegionKind.COMPUTED_TIE: "=", RegionKind.QUOTED_TIE: "@", RegionKind.RANGE_TIE: "~"}[self.kind]


@dataclass(eq=False)
class QuotedTie(Tie):
    kind = RegionKind.QUOTED_TIE
    source: str = ""
    value: DocumentedValue | None = None


@dataclass(eq=False)
class NamedTie(Tie):
    """A tie that names a value a snippet computed."""

    ref: Reference | None = None
    snippet: str = ""  # resolved: the named snippet or the nearest run block's


@dataclass(eq=False)
class ComputedTie(NamedTie):
    kind = RegionKind.COMPUTED_TIE
    value: DocumentedValue | None = None


@dataclass(eq=False)
class RangeTie(NamedTie):
    """``{{ LOW..HIGH ~ NAME }}``: the value this build measured lies in [LOW, HIGH], both included."""

    kind = RegionKind.RANGE_TIE
    low: Number | None = None
    high: Number | None = None

    @property
    def shown_range(self) -> str:
        return f"{self.low.text}\u2013{self.high.text}"


@dataclass(eq=False)
class Figure(Region):
    kind = RegionKind.FIGURE
    alt: str = ""
    src: str = ""


@dataclass(eq=False)
class Widget(Region):
    """``<div class="widget" data-widget="NAME" data-src="figures/STEM/FILE.json">TEXT</div>``:
    a script draws the data file; TEXT is its text alternative."""

    kind = RegionKind.WIDGET
    name: str = ""  # data-widget: which script draws it
    src: str = ""  # data-src: the data file, relative to the page
    alt: str = ""  # the text inside the div, tags stripped
    block: str = ""  # the raw HTML block, as written


# Every region type a page can hold: each stage registers one handler for each of them.
REGION_TYPES = (RunBlock, OutputBlock, ComputedTie, QuotedTie, RangeTie, Figure, Widget)
