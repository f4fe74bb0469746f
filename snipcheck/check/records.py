"""What checking finds: one row per checked or quoted value, each region's outcome, and the
``Build`` record that holds them all for the report stage. Plain records: nothing here renders."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..problems import Problem, ProblemKind
from ..read.page import Document
from ..read.regions import Region, RegionKind
from ..run.result import SnippetResult, Stats
from ..values.computed import Looked


@dataclass
class Check:
    """One row of the verification page: where the value stands, what the page says, what ran."""

    path: str
    line: int
    position: int  # 1-based, among the checked values of its line
    documented: str
    computed: str
    snippet: str
    what: str  # "output", or the tie's name
    ok: bool
    kind: RegionKind
    measured: bool = False  # a live measurement (a range tie): differs from build to build
    anchor: str = ""  # unique on the verification page; set by check/anchors.py


@dataclass
class Citation:
    path: str
    line: int
    position: int
    documented: str
    source: str
    anchor: str = ""


@dataclass
class Outcome:
    checks: list[Check] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    value: Looked | None = None  # what a tie's name looked up to (accept writes it back)
    data: str | None = None  # a widget's data file, checked, as compact JSON (its page embeds it)

    @property
    def drifted(self) -> bool:
        """A documented value differs from the computed one (what ``accept`` rewrites)."""
        return any(p.kind is ProblemKind.DRIFT for p in self.problems)


@dataclass
class Context:
    """What a region is checked against."""

    path: str
    results: dict[str, SnippetResult]
    live: set[str]  # snippets some page runs live
    shown: set[str]  # snippets some page runs (shows the code of)
    uri: str = ""  # the page, relative to the docs folder
    drawn: set[str] = field(default_factory=set)  # figures/STEM/FILE of every figure drawn
    failed: tuple[str, ...] = ()  # figures/STEM/ of every snippet that failed or is still running
    snippets_prefix: str = "snippets"  # the snippets folder as problems name it
    runs: dict[str, list] = field(default_factory=dict)  # snippet -> this page's run blocks of it, in page order

    def where(self, snippet: str) -> str:
        return f"{self.snippets_prefix}/{snippet}"


@dataclass
class Build:
    """The outcome of one check of the site: every page's regions and what checking each found."""

    docs: dict[str, Document]  # src_uri (relative to the docs folder) -> parsed page
    results: dict[str, SnippetResult]
    stats: Stats
    sources: dict[str, str]
    docs_prefix: str
    snippets_prefix: str = "snippets"  # the snippets folder, relative to the project
    outcomes: dict[Region, Outcome] = field(default_factory=dict)  # region -> its outcome
    problems: list[Problem] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    page_problems: dict[str, list[Problem]] = field(default_factory=dict)
    # Live snippets still running in a build that did not wait for them (``Engine.finish`` does).
    waiting: set[str] = field(default_factory=set)
    base_problems: list[Problem] = field(default_factory=list)  # found before any snippet ran
    before: dict[str, str] = field(default_factory=dict)  # hashes of pages and snippets before the runs

    @property
    def complete(self) -> bool:
        return not self.waiting

    def needs(self, src_uri: str) -> bool:
        """Whether the page shows or checks something a snippet still running will give."""
        doc = self.docs.get(src_uri)
        return doc is not None and bool(self.waiting.intersection(doc.snippets()))

    def outcome(self, region: Region) -> Outcome:
        return self.outcomes.get(region, Outcome())

    def snippet_label(self, name: str) -> str:
        """A snippet as the site names it: its path in the project (``snippets/02_one_head.py``)."""
        return f"{self.snippets_prefix}/{name}"

    def report(self) -> str:
        """All problems, one per entry, each starting with file:line."""
        return "\n".join(str(p) for p in self.problems)
