"""Checking a parsed page against what its snippets computed, and rendering it for the site."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from .document import FIGURES_DIR, Document, Problem, Tie
from .numeric import Number, compare_output, tokenize
from .runner import SnippetResult

_INDEX = re.compile(r"\[([^\]]*)\]")
_THOUSANDS = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?")


@dataclass
class Check:
    """One checked number: where it stands, what the page says, what the code computed."""

    path: str
    line: int
    documented: str
    computed: str
    snippet: str
    what: str  # "output" or the tie's expression
    ok: bool

    @property
    def anchor(self) -> str:
        return "check-" + re.sub(r"[^a-z0-9]+", "-", f"{self.path.rsplit('.', 1)[0]}-{self.line}".lower()).strip("-")


@dataclass
class Citation:
    path: str
    line: int
    documented: str
    source: str

    @property
    def anchor(self) -> str:
        return "cited-" + re.sub(r"[^a-z0-9]+", "-", f"{self.path.rsplit('.', 1)[0]}-{self.line}".lower()).strip("-")


class LookupError_(Exception):
    pass


def lookup(values: dict, expr: str):
    """Evaluate ``name``, ``name[i, j]``, ``name[i][j]`` or ``name.shape`` against captured values."""
    import numpy as np

    shape_suffix = None
    if ".shape" in expr:
        expr, _, shape_suffix = expr.partition(".shape")
    name, _, rest = expr.partition("[")
    if name not in values:
        known = ", ".join(sorted(values)) or "none"
        raise LookupError_(f"the snippet defines no number or array named {name!r} (it defines: {known})")
    entry = values[name]
    if entry["data"] is None and not (shape_suffix is not None and not rest):
        raise LookupError_(f"{name!r} is too large to keep ({entry['shape']}); tie to a smaller value")
    value = np.asarray(entry["data"]) if entry["data"] is not None else np.empty(entry["shape"])
    try:
        for group in _INDEX.findall("[" + rest if rest else ""):
            value = value[tuple(int(part) for part in group.split(","))]
        if shape_suffix is not None:
            value = np.asarray(np.shape(value))
            for group in _INDEX.findall(shape_suffix):
                value = value[tuple(int(part) for part in group.split(","))]
    except (IndexError, ValueError) as exc:
        raise LookupError_(f"cannot take {expr}{'.shape' + shape_suffix if shape_suffix is not None else ''}: {exc}") from None
    return value


def _format_computed(value) -> str:
    import numpy as np

    array = np.asarray(value)
    if array.ndim == 0:
        item = array.item()
        return repr(item) if isinstance(item, float) else str(item)
    return np.array2string(array, separator=", ", threshold=64, floatmode="maxprec", precision=6)


def check_tie(tie: Tie, path: str, results: dict[str, SnippetResult]) -> tuple[Check | None, Problem | None]:
    """Compare one tied prose number (or list of numbers) with the value its snippet computed."""
    result = results.get(tie.snippet)
    if result is None or result.error is not None:
        return None, None  # the snippet's own failure is reported once, at its run block
    try:
        value = lookup(result.values, tie.expr)
    except LookupError_ as exc:
        return None, Problem(path, tie.line, str(exc), f"snippets/{tie.snippet}")
    import numpy as np

    if tie.documented in ("True", "False"):
        shown = _format_computed(value)
        ok = np.asarray(value).dtype == bool and np.asarray(value).size == 1 and str(bool(value)) == tie.documented
        check = Check(path, tie.line, tie.documented, shown, tie.snippet, tie.expr, ok)
        problem = None if ok else Problem(path, tie.line, f"documented {tie.documented}, computed {tie.expr} = {shown}", f"snippets/{tie.snippet}")
        return check, problem
    if _THOUSANDS.fullmatch(tie.documented):
        documented = [Number(tie.documented)]  # 20,000 is one number in prose
    else:
        documented = [t.number for t in tokenize(tie.documented) if t.number is not None]
    computed = np.asarray(value, dtype=float).ravel()
    if not documented:
        return None, Problem(path, tie.line, f"{tie.documented!r} is not a number", f"snippets/{tie.snippet}")
    shown = _format_computed(value)
    check = Check(path, tie.line, tie.documented, shown, tie.snippet, tie.expr, True)
    if len(documented) != computed.size:
        check.ok = False
        return check, Problem(path, tie.line, f"documented {tie.documented} ({len(documented)} numbers), computed {tie.expr} = {shown} ({computed.size} numbers)", f"snippets/{tie.snippet}")
    bad = [(d, c) for d, c in zip(documented, computed.tolist()) if not d.accepts(repr(c) if isinstance(c, float) else c)]
    if bad:
        check.ok = False
        detail = "; ".join(f"{d.text} vs {c!r}" for d, c in bad) if len(documented) > 1 else ""
        message = f"documented {tie.documented}, computed {tie.expr} = {shown}" + (f" ({detail})" if detail else "")
        return check, Problem(path, tie.line, message, f"snippets/{tie.snippet}")
    return check, None


def check_document(doc: Document, results: dict[str, SnippetResult]) -> tuple[list[Problem], list[Check], list[Citation]]:
    """Every problem on the page, every number it checks, every number it quotes."""
    problems = list(doc.problems)
    checks: list[Check] = []
    citations: list[Citation] = []
    for run in doc.runs:
        result = results[run.snippet]
        where = f"snippets/{run.snippet}"
        if result.error is not None:
            problems.append(Problem(doc.path, run.line, f"{where} failed:\n{_indent(result.error)}"))
            continue
        if run.live:
            if run.output is not None:
                problems.append(Problem(doc.path, run.output.line, "a live run's output is measured, not documented: remove this output block", where))
            continue
        if run.output is None:
            if result.stdout.strip():
                problems.append(Problem(doc.path, run.line, "the snippet prints output that the page never documents: add an ```output block after the run block", where))
            continue
        for drift in compare_output(run.output.text, result.stdout):
            problems.append(Problem(doc.path, run.output.first_text_line + drift.line, f"documented {drift.documented}, computed {drift.computed}", where))
        checks.extend(_output_checks(doc.path, run, result))
    for tie in doc.ties:
        if tie.op == "@":
            citations.append(Citation(doc.path, tie.line, tie.documented, tie.ref))
            continue
        check, problem = check_tie(tie, doc.path, results)
        if check is not None:
            checks.append(check)
        if problem is not None:
            problems.append(problem)
    problems.extend(_check_figures(doc, results))
    return problems, checks, citations


def _output_checks(path: str, run, result: SnippetResult) -> list[Check]:
    """Pair each documented output number with the computed one, for the verification page."""
    got = [t.text for t in tokenize(result.stdout) if t.number is not None]
    checks = []
    for i, token in enumerate(t for t in tokenize(run.output.text) if t.number is not None):
        computed = got[i] if i < len(got) else "(missing)"
        ok = i < len(got) and token.number.accepts(computed)
        checks.append(Check(path, run.output.first_text_line + token.line, token.text, computed, run.snippet, "output", ok))
    return checks


def _check_figures(doc: Document, results: dict[str, SnippetResult]) -> list[Problem]:
    problems = []
    drawn = {f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/{fig}" for name, r in results.items() for fig in r.figures}
    failed = {f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/" for name, r in results.items() if r.error is not None}
    page_dir = posixpath.dirname(doc.uri)
    for figure in doc.figures:
        target = posixpath.normpath(posixpath.join(page_dir, figure.src))
        if not target.startswith(FIGURES_DIR + "/"):
            continue
        if not figure.alt:
            problems.append(Problem(doc.path, figure.line, f"figure {figure.src} has no alt text: describe what it shows"))
        if target not in drawn and not target.startswith(tuple(failed)):
            problems.append(Problem(doc.path, figure.line, f"figure {figure.src} was not drawn by any snippet this build ran"))
    return problems


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines())
