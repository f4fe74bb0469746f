"""Checking each region against what the snippets computed: one handler per region type,
registered in ``CHECK``; each returns the region's ``Outcome`` (the rows it adds to the
verification page and the problems it found)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from ..dispatch import ByRegion
from ..layout import DATA_SUFFIX, figure_snippet, figure_target, is_figure
from ..numeric import compare_output, compare_tokens, tokenize
from ..problems import VALUE_LIMIT, Problem, ProblemKind, cut
from ..read.regions import ComputedTie, Figure, NamedTie, OutputBlock, QuotedTie, RangeTie, RunBlock, Widget
from ..run.result import SnippetResult
from ..values.compare import compare_value, measured_text
from ..values.computed import Looked, ReferenceError_, lookup
from .data import DataError, canonical
from .records import Check, Citation, Context, Outcome

CHECK = ByRegion("CHECK")


@CHECK.register(OutputBlock)
def check_output(block: OutputBlock, ctx: Context) -> Outcome:
    out = Outcome()
    run = block.run
    if run is None or run.live:
        return out  # reported by the parser or by the run block
    result = ctx.results.get(run.snippet)
    if result is None or result.error is not None or result.pending:
        return out
    stdout = result.output(run.cell)
    if stdout is None:
        return out  # a cell the run did not split out: reported with the page's cells
    drifts = compare_output(block.text, stdout)
    for i, drift in enumerate(drifts):
        message = f"documented {cut(drift.documented, VALUE_LIMIT)}, computed {cut(drift.computed, VALUE_LIMIT)}"
        if i == 0 and not stdout.strip() and result.stderr.strip():
            message += "\n    the snippet printed nothing to standard output; its standard error reads:\n" + "\n".join(
                "    " + line for line in result.stderr.strip().splitlines()[-6:]
            )
        out.problems.append(Problem(ProblemKind.DRIFT, ctx.path, block.first_text_line + drift.line, message, ctx.where(run.snippet)))
    got = [t for t in tokenize(stdout) if t.number is not None]
    per_line: dict[int, int] = {}
    for i, token in enumerate(t for t in block.tokens if t.number is not None):
        line = block.first_text_line + token.line
        per_line[line] = per_line.get(line, 0) + 1
        computed = got[i].text if i < len(got) else "(missing)"
        ok = i < len(got) and compare_tokens(token, got[i])
        out.checks.append(Check(ctx.path, line, per_line[line], token.text, computed, run.snippet, "output", ok, block.kind))
    return out


@CHECK.register(RunBlock)
def check_run(run: RunBlock, ctx: Context) -> Outcome:
    out = Outcome()
    result = ctx.results.get(run.snippet)
    where = ctx.where(run.snippet)
    if result is None or result.pending:
        return out
    if result.error is not None:
        if _reports_failure(run, result, ctx):
            out.problems.append(Problem(ProblemKind.SNIPPET, ctx.path, run.line, f"{where} failed:\n{_indent(result.error)}"))
        return out
    if run.live:
        if run.output is not None:
            out.problems.append(
                Problem(
                    ProblemKind.SYNTAX, ctx.path, run.output.line, "a live run's output is measured, not documented: remove this output block", where
                )
            )
        return out
    if run.output is None and (result.output(run.cell) or "").strip():
        what = "the snippet prints" if run.cell is None else f"cell {run.cell!r} prints"
        out.problems.append(
            Problem(
                ProblemKind.UNDOCUMENTED,
                ctx.path,
                run.line,
                f"{what} output that the page never documents: add an ```output block after the run block",
                where,
            )
        )
    return out


def _reports_failure(run: RunBlock, result: SnippetResult, ctx: Context) -> bool:
    """A snippet shown in cells fails once a page: at the block of the cell that raised, or (a
    timeout, say, or that cell not shown) at the snippet's first block."""
    if run.cell is None:
        return True
    blocks = ctx.runs.get(run.snippet) or [run]
    return next((b for b in blocks if b.cell == result.failed_cell), blocks[0]) is run


@CHECK.register(QuotedTie)
def check_quoted(tie: QuotedTie, ctx: Context) -> Outcome:
    return Outcome(citations=[Citation(ctx.path, tie.line, tie.position, tie.documented, tie.source)])


def _value(tie: NamedTie, ctx: Context, out: Outcome) -> tuple[SnippetResult, Looked] | None:
    where = ctx.where(tie.snippet)
    result = ctx.results.get(tie.snippet)
    if result is None or result.pending:
        return None
    if tie.snippet not in ctx.shown:
        out.problems.append(
            Problem(
                ProblemKind.UNUSED,
                ctx.path,
                tie.line,
                f"no page runs {where}, so no reader sees the code behind this number: add a run block for it",
                where,
            )
        )
    if result.error is not None:
        if tie.snippet not in ctx.shown:
            out.problems.append(Problem(ProblemKind.SNIPPET, ctx.path, tie.line, f"{where} failed:\n{_indent(result.error)}"))
        return None  # otherwise reported once, at its run block
    try:
        return result, lookup(result.values, tie.ref)
    except ReferenceError_ as exc:
        out.problems.append(Problem(ProblemKind.REFERENCE, ctx.path, tie.line, str(exc), where))
        return None


@CHECK.register(ComputedTie)
def check_computed(tie: ComputedTie, ctx: Context) -> Outcome:
    out = Outcome()
    got = _value(tie, ctx, out)
    if got is None:
        return out
    _, looked = got
    out.value = looked
    ok, detail = compare_value(tie.value, looked)
    shown = looked.shown()
    out.checks.append(Check(ctx.path, tie.line, tie.position, tie.documented, shown, tie.snippet, tie.ref.expr, ok, tie.kind))
    if not ok:
        message = f"documented {tie.documented}, computed {tie.ref.expr} = {shown}" + (f" ({detail})" if detail else "")
        out.problems.append(Problem(ProblemKind.DRIFT, ctx.path, tie.line, message, ctx.where(tie.snippet)))
    return out


@CHECK.register(RangeTie)
def check_range(tie: RangeTie, ctx: Context) -> Outcome:
    out = Outcome()
    where = ctx.where(tie.snippet)
    if tie.snippet not in ctx.live:
        out.problems.append(
            Problem(
                ProblemKind.SYNTAX,
                ctx.path,
                tie.line,
                f"a range tie checks a live measurement, and no page runs {where} live: "
                "tie a computed value with {{ NUMBER = NAME }}, or mark the run block live",
                where,
            )
        )
        return out
    got = _value(tie, ctx, out)
    if got is None:
        return out
    _, looked = got
    out.value = looked
    if looked.kind not in ("int", "float") or looked.shape:
        what = "a boolean" if looked.kind == "bool" else ("an array of shape " + str(looked.shape) if looked.shape else f"a {looked.kind} number")
        out.problems.append(Problem(ProblemKind.REFERENCE, ctx.path, tie.line, f"a range tie needs one real number; {tie.ref.expr} is {what}", where))
        return out
    measured = looked.data
    try:
        value = Decimal(repr(measured)) if isinstance(measured, float) else Decimal(measured)
        ok = not value.is_nan() and tie.low.value() <= value <= tie.high.value()
    except (InvalidOperation, ValueError):
        ok = False
    shown = measured_text(measured, tie.low, tie.high)
    out.checks.append(
        Check(ctx.path, tie.line, tie.position, f"{tie.low.text}..{tie.high.text}", shown, tie.snippet, tie.ref.expr, ok, tie.kind, measured=True)
    )
    if not ok:
        out.problems.append(Problem(ProblemKind.RANGE, ctx.path, tie.line, f"documented {tie.low.text}..{tie.high.text}, measured {shown}", where))
    return out


@CHECK.register(Figure)
def check_figure(figure: Figure, ctx: Context) -> Outcome:
    out = Outcome()
    target = figure_target(ctx.uri, figure.src)
    if not is_figure(target):
        return out
    if not figure.alt:
        out.problems.append(Problem(ProblemKind.FIGURE, ctx.path, figure.line, f"figure {figure.src} has no alt text: describe what it shows"))
    if target not in ctx.drawn and not target.startswith(ctx.failed):
        out.problems.append(Problem(ProblemKind.FIGURE, ctx.path, figure.line, f"figure {figure.src} was not drawn by any snippet this build ran"))
    return out


@CHECK.register(Widget)
def check_widget(widget: Widget, ctx: Context) -> Outcome:
    """The data file a widget shows: written by a snippet this page runs, and valid JSON."""
    out = Outcome()
    target = figure_target(ctx.uri, widget.src)

    def refuse(message: str, snippet: str | None = None) -> Outcome:
        out.problems.append(Problem(ProblemKind.FIGURE, ctx.path, widget.line, message, snippet))
        return out

    if not widget.alt:
        refuse(f"widget {widget.src} has no text alternative: say inside the div what it shows")
    snippet = figure_snippet(target) if is_figure(target) and target.endswith(DATA_SUFFIX) else None
    if snippet is None:
        return refuse(
            f"widget data-src={widget.src!r} must name a {DATA_SUFFIX} file in the figures folder "
            "(figures/SNIPPET/FILE, a file a snippet of this page writes)"
        )
    where = ctx.where(snippet)
    if snippet not in ctx.runs:
        return refuse(f"widget {widget.src} shows a file of {where}, which this page does not run: add a run block for it", where)
    result = ctx.results.get(snippet)
    if result is None or result.pending or result.error is not None:
        return out  # still running, or its failure is reported at its run block
    file = target.split("/", 2)[2]
    if file not in result.figures:
        return refuse(f"widget {widget.src} shows {file}, which {where} did not write", where)
    try:
        out.data = canonical(result.figure_bytes(file))
    except DataError as exc:
        refuse(f"widget {widget.src}: {file} {exc}", where)
    return out


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines())
