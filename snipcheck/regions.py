"""The data model: every construct on a page is one region, read once.

A region has its span on the page (lines, and columns for a tie), its parsed content (the
snippet a run block names, the numbers an output block documents, a tie's documented value with
its kind and the reference it names) and its check. ``check`` compares it with what the snippets
computed and returns an ``Outcome``: the rows it adds to the verification page and the problems
it found. Rendering, accepting a change and the verification page read the same regions and
outcomes; nothing re-derives what a page contains.

The regions: ``RunBlock``, ``OutputBlock``, ``ComputedTie`` (``{{ 0.248 = NAME }}``),
``QuotedTie`` (``{{ 27.3 @ SOURCE }}``), ``RangeTie`` (``{{ 3..5 ~ NAME }}``) and ``Figure``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from .numeric import Number, Token, compare_output, compare_tokens, three_significant, tokenize
from .results import Problem, ProblemKind, SnippetResult
from .values import Looked, Reference, ReferenceError_, lookup


class RegionKind(enum.Enum):
    RUN = "run block"
    OUTPUT = "output block"
    COMPUTED_TIE = "computed tie"
    QUOTED_TIE = "quoted tie"
    RANGE_TIE = "range tie"
    FIGURE = "figure"


class ValueKind(enum.Enum):
    """What a tie documents: decided once, when the page is read."""

    BOOL = "boolean"
    NUMBER = "number"
    COMPLEX = "complex number"
    SEQUENCE = "list of numbers"


@dataclass(frozen=True)
class Atom:
    """One documented scalar in a tie: a number (or an imaginary part) or a boolean."""

    text: str
    start: int  # offset in the tie's documented text
    end: int
    number: Number | None = None
    boolean: bool | None = None

    @property
    def imaginary(self) -> bool:
        return self.number is not None and self.number.imaginary


@dataclass(frozen=True)
class DocumentedValue:
    kind: ValueKind
    text: str
    atoms: tuple[Atom, ...]


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
    anchor: str = ""  # unique on the verification page; set by the engine


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


# -- regions ------------------------------------------------------------------------------------------

@dataclass(eq=False)
class Region:
    kind = RegionKind.RUN
    line: int  # 1-based, the first line
    end_line: int  # 1-based, the last line

    def check(self, ctx: Context) -> Outcome:
        return Outcome()


@dataclass(eq=False)
class OutputBlock(Region):
    kind = RegionKind.OUTPUT
    indent: str = ""
    fence: str = "```"
    text: str = ""
    tokens: tuple[Token, ...] = ()
    run: "RunBlock | None" = None

    @property
    def first_text_line(self) -> int:
        return self.line + 1

    def check(self, ctx: Context) -> Outcome:
        out = Outcome()
        run = self.run
        if run is None or run.live:
            return out  # reported by the parser or by the run block
        result = ctx.results.get(run.snippet)
        if result is None or result.error is not None or result.pending:
            return out
        drifts = compare_output(self.text, result.stdout)
        for i, drift in enumerate(drifts):
            message = f"documented {drift.documented}, computed {drift.computed}"
            if i == 0 and not result.stdout.strip() and result.stderr.strip():
                message += ("\n    the snippet printed nothing to standard output; its standard error reads:\n"
                            + "\n".join("    " + line for line in result.stderr.strip().splitlines()[-6:]))
            out.problems.append(Problem(ProblemKind.DRIFT, ctx.path, self.first_text_line + drift.line, message, f"snippets/{run.snippet}"))
        got = [t for t in tokenize(result.stdout) if t.number is not None]
        per_line: dict[int, int] = {}
        for i, token in enumerate(t for t in self.tokens if t.number is not None):
            line = self.first_text_line + token.line
            per_line[line] = per_line.get(line, 0) + 1
            computed = got[i].text if i < len(got) else "(missing)"
            ok = i < len(got) and compare_tokens(token, got[i])
            out.checks.append(Check(ctx.path, line, per_line[line], token.text, computed, run.snippet, "output", ok, self.kind))
        return out


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
    output: OutputBlock | None = None

    def check(self, ctx: Context) -> Outcome:
        out = Outcome()
        result = ctx.results.get(self.snippet)
        where = f"snippets/{self.snippet}"
        if result is None or result.pending:
            return out
        if result.error is not None:
            out.problems.append(Problem(ProblemKind.SNIPPET, ctx.path, self.line, f"{where} failed:\n{_indent(result.error)}"))
            return out
        if self.live:
            if self.output is not None:
                out.problems.append(Problem(ProblemKind.SYNTAX, ctx.path, self.output.line,
                                            "a live run's output is measured, not documented: remove this output block", where))
            return out
        if self.output is None and result.stdout.strip():
            out.problems.append(Problem(ProblemKind.UNDOCUMENTED, ctx.path, self.line,
                                        "the snippet prints output that the page never documents: add an ```output block after the run block", where))
        return out


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

    def check(self, ctx: Context) -> Outcome:
        return Outcome(citations=[Citation(ctx.path, self.line, self.position, self.documented, self.source)])


@dataclass(eq=False)
class _NamedTie(Tie):
    ref: Reference | None = None
    snippet: str = ""  # resolved: the named snippet or the nearest run block's

    def _value(self, ctx: Context, out: Outcome) -> tuple[SnippetResult, Looked] | None:
        where = f"snippets/{self.snippet}"
        result = ctx.results.get(self.snippet)
        if result is None or result.pending:
            return None
        if self.snippet not in ctx.shown:
            out.problems.append(Problem(ProblemKind.UNUSED, ctx.path, self.line,
                                        f"no page runs {where}, so no reader sees the code behind this number: add a run block for it", where))
        if result.error is not None:
            if self.snippet not in ctx.shown:
                out.problems.append(Problem(ProblemKind.SNIPPET, ctx.path, self.line, f"{where} failed:\n{_indent(result.error)}"))
            return None  # otherwise reported once, at its run block
        try:
            return result, lookup(result.values, self.ref)
        except ReferenceError_ as exc:
            out.problems.append(Problem(ProblemKind.REFERENCE, ctx.path, self.line, str(exc), where))
            return None


@dataclass(eq=False)
class ComputedTie(_NamedTie):
    kind = RegionKind.COMPUTED_TIE
    value: DocumentedValue | None = None

    def check(self, ctx: Context) -> Outcome:
        out = Outcome()
        got = self._value(ctx, out)
        if got is None:
            return out
        _, looked = got
        out.value = looked
        ok, detail = compare_value(self.value, looked)
        shown = looked.shown()
        check = Check(ctx.path, self.line, self.position, self.documented, shown, self.snippet, self.ref.expr, ok, self.kind)
        out.checks.append(check)
        if not ok:
            message = f"documented {self.documented}, computed {self.ref.expr} = {shown}" + (f" ({detail})" if detail else "")
            out.problems.append(Problem(ProblemKind.DRIFT, ctx.path, self.line, message, f"snippets/{self.snippet}"))
        return out


@dataclass(eq=False)
class RangeTie(_NamedTie):
    """``{{ LOW..HIGH ~ NAME }}``: the value this build measured lies in [LOW, HIGH], both included."""

    kind = RegionKind.RANGE_TIE
    low: Number | None = None
    high: Number | None = None

    @property
    def shown_range(self) -> str:
        return f"{self.low.text}\u2013{self.high.text}"

    def check(self, ctx: Context) -> Outcome:
        out = Outcome()
        where = f"snippets/{self.snippet}"
        if self.snippet not in ctx.live:
            out.problems.append(Problem(ProblemKind.SYNTAX, ctx.path, self.line,
                                        f"a range tie checks a live measurement, and no page runs {where} live: "
                                        "tie a computed value with {{ NUMBER = NAME }}, or mark the run block live", where))
            return out
        got = self._value(ctx, out)
        if got is None:
            return out
        _, looked = got
        out.value = looked
        if looked.kind not in ("int", "float") or looked.shape:
            what = "a boolean" if looked.kind == "bool" else ("an array of shape " + str(looked.shape) if looked.shape else f"a {looked.kind} number")
            out.problems.append(Problem(ProblemKind.REFERENCE, ctx.path, self.line,
                                        f"a range tie needs one real number; {self.ref.expr} is {what}", where))
            return out
        measured = looked.data
        try:
            value = Decimal(repr(measured)) if isinstance(measured, float) else Decimal(measured)
            ok = not value.is_nan() and self.low.value() <= value <= self.high.value()
        except (InvalidOperation, ValueError):
            ok = False
        shown = measured_text(measured, self.low, self.high)
        out.checks.append(Check(ctx.path, self.line, self.position, f"{self.low.text}..{self.high.text}", shown,
                                self.snippet, self.ref.expr, ok, self.kind, measured=True))
        if not ok:
            out.problems.append(Problem(ProblemKind.RANGE, ctx.path, self.line,
                                        f"documented {self.low.text}..{self.high.text}, measured {shown}", where))
        return out


def measured_text(value, low: Number, high: Number) -> str:
    """Three significant digits, or every digit when the rounded value would hide which side of a
    bound the measurement lies on."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    text = three_significant(float(value))
    try:
        inside = low.value() <= Decimal(repr(value)) <= high.value()
        shown_inside = low.value() <= Decimal(text) <= high.value()
    except (InvalidOperation, ValueError):
        return text
    return text if inside == shown_inside else repr(value)


@dataclass(eq=False)
class Figure(Region):
    kind = RegionKind.FIGURE
    alt: str = ""
    src: str = ""

    def check(self, ctx: Context) -> Outcome:
        import posixpath

        out = Outcome()
        target = posixpath.normpath(posixpath.join(posixpath.dirname(ctx.uri), self.src))
        if not target.startswith("figures/"):
            return out
        if not self.alt:
            out.problems.append(Problem(ProblemKind.FIGURE, ctx.path, self.line, f"figure {self.src} has no alt text: describe what it shows"))
        if target not in ctx.drawn and not target.startswith(ctx.failed):
            out.problems.append(Problem(ProblemKind.FIGURE, ctx.path, self.line, f"figure {self.src} was not drawn by any snippet this build ran"))
        return out


# -- comparing a documented value with a computed one ------------------------------------------------

def compare_value(documented: DocumentedValue, looked: Looked) -> tuple[bool, str]:
    """(matches, detail for the message)."""
    atoms = documented.atoms
    if documented.kind is ValueKind.BOOL:
        if looked.kind != "bool" or looked.shape not in ((), (1,)):
            return False, "a boolean is documented, the value is not one"
        value = looked.data if not looked.shape else looked.data[0]
        return atoms[0].boolean is bool(value), ""
    if looked.kind == "bool":
        return False, "the value is a boolean: write True or False"
    flat = looked.flat()
    if len(atoms) != len(flat):
        return False, f"{_count(len(atoms))} documented, {_count(len(flat))} computed"
    bad = []
    for atom, (part, value) in zip(atoms, flat):
        if atom.imaginary != (part == "im") or not atom.number.accepts(_exact_text(value)):
            bad.append(f"{atom.text} vs {_exact_text(value)}{'j' if part == 'im' else ''}")
    if bad:
        return False, "; ".join(bad) if len(atoms) > 1 else ""
    return True, ""


def _count(n: int) -> str:
    return f"{n} number" + ("" if n == 1 else "s")


def _exact_text(value) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines())
