"""Reading the ties of a line of prose: where each ``{{ ... }}`` stands, where a tie would not
render (math, an HTML tag, link text or a link's address), and each tie's parts read into a
region (its documented value and the reference it names). Problems go to ``problem(kind, line,
message)``; the page reader (``page.py``) decides which lines are prose. ``tie_texts`` and
``replace_ties`` give the same ties as written, for tools that read pages without checking them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from ..problems import ProblemKind
from ..values.computed import Reference, ReferenceError_, parse_reference
from ..values.documented import parse_range, parse_value
from .regions import ComputedTie, QuotedTie, RangeTie, RunBlock, Tie

_CODE_RUN = re.compile(r"`+")
# pymdownx.arithmatex's inline patterns (smart dollars, and \( \)): text it turns into math.
DOLLAR_MATH = re.compile(r"(?<!\\)\$(?!\s)(?:\\.|[^\\$])+?(?<!\s)\$")
_PAREN_MATH = re.compile(r"(?<!\\)\\\((?:\\[^)]|[^\\])+?\\\)")
_BRACKET_MATH = re.compile(r"(?<!\\)\\\[(?:\\[^\]]|[^\\])+?\\\]")
HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_OPERATOR = re.compile(r"\s([=@~])\s")


def mask_code(line: str) -> str:
    """The line with code spans blanked out (ties inside `code` are text, as written). As in
    Python-Markdown, a backtick after a backslash opens no span (\\` is a backtick shown as
    text), and a span closes at the next run of as many backticks."""
    out = list(line)
    runs = [(m.start(), m.end()) for m in _CODE_RUN.finditer(line)]
    k = 0
    while k < len(runs):
        start, end = runs[k]
        backslashes = start - len(line[:start].rstrip("\\"))
        start += backslashes % 2  # an escaped backtick is text; the rest of its run may open a span
        closing = next((j for j in range(k + 1, len(runs)) if runs[j][1] - runs[j][0] == end - start), None)
        if start == end or closing is None:
            k += 1
            continue
        out[start : runs[closing][1]] = " " * (runs[closing][1] - start)
        k = closing + 1
    return "".join(out)


def tie_spans(problem, line: str, line_no: int) -> list[tuple[int, int]]:
    """Where each ``{{ ... }}`` stands; malformed braces are reported and skipped."""
    spans, pos = [], 0
    while True:
        start = line.find("{{", pos)
        if start < 0:
            break
        if (start > 0 and line[start - 1] == "{") or line[start + 2 : start + 3] == "{":
            problem(ProblemKind.SYNTAX, line_no, "'{{{' is not a tie: a tie is written with two braces, {{ NUMBER = NAME }}")
            pos = line.find("}}", start) + 2 if line.find("}}", start) >= 0 else len(line)
            continue
        close = line.find("}}", start + 2)
        nested = line.find("{{", start + 2)
        if close < 0:
            problem(
                ProblemKind.SYNTAX,
                line_no,
                "'{{' opens no tie (no '}}' on its line): write {{ NUMBER = NAME }}, {{ NUMBER @ SOURCE }} or {{ LOW..HIGH ~ NAME }}",
            )
            break
        if 0 <= nested < close:
            problem(ProblemKind.SYNTAX, line_no, "a tie cannot hold another tie ('{{' inside '{{ ... }}')")
            end = line.find("}}", close + 2)
            pos = (end + 2) if end >= 0 else close + 2
            continue
        if line[close + 2 : close + 3] == "}":
            problem(ProblemKind.SYNTAX, line_no, "'}}}' closes no tie: a tie is written with two braces, {{ NUMBER = NAME }}")
            pos = close + 3
            continue
        spans.append((start, close + 2))
        pos = close + 2
    return spans


def forbidden_spans(line: str) -> list[tuple[int, int, str]]:
    """Spans of the line where a tie would not render, with what to call them."""
    spans = [
        (m.start(), m.end(), "inside math, where it would not render: write the number in prose, as $d_k$ = {{ 64 = d_k }}")
        for pattern in (DOLLAR_MATH, _PAREN_MATH, _BRACKET_MATH)
        for m in pattern.finditer(line)
    ]
    spans += [(m.start(), m.end(), "inside an HTML tag, where it would not render") for m in HTML_TAG.finditer(line)]
    for close in (m.start() for m in re.finditer(r"\](?=[(\[])", line)):
        depth, j = 0, close
        while j >= 0:
            depth += {"]": 1, "[": -1}.get(line[j], 0)
            if depth == 0:
                break
            j -= 1
        if j >= 0:
            spans.append((j, close + 1, "inside link text, where it cannot link to its check: move it out of the link"))
            end = line.find({"(": ")", "[": "]"}[line[close + 1]], close + 2)
            if end >= 0:
                spans.append((close + 1, end + 1, "inside a link's address"))
    return spans


class TieText(NamedTuple):
    """A tie as written: where it stands in its text, its documented value, operator and reference."""

    start: int
    end: int
    documented: str
    op: str
    ref: str


def _ignore(kind, line_no, message) -> None:
    """A ``problem`` callback for readers that do not report: the checker reports malformed ties."""


def tie_texts(text: str) -> list[TieText]:
    """Every readable tie of ``text`` (one line or many), as the checker splits it; braces it
    cannot read are skipped."""
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        for start, end in tie_spans(_ignore, line, 0):
            parts = _split(line[start + 2 : end - 2])
            if parts is not None and parts[0] and parts[2]:
                out.append(TieText(offset + start, offset + end, *parts))
        offset += len(line)
    return out


def replace_ties(text: str, repl: Callable[[TieText], str]) -> str:
    """``text`` with each readable tie replaced by ``repl(tie)``."""
    pieces, pos = [], 0
    for tie in tie_texts(text):
        pieces += [text[pos : tie.start], repl(tie)]
        pos = tie.end
    return "".join(pieces) + text[pos:]


def _split(inner: str) -> tuple[str, str, str] | None:
    """A tie's inside as (documented, operator, reference), stripped; None without an operator."""
    match = _OPERATOR.search(inner)
    if match is None:
        return None
    return inner[: match.start()].strip(), match[1], inner[match.end() :].strip()


def read_tie(problem, line: str, line_no: int, start: int, end: int, last_run: RunBlock | None) -> Tie | None:
    inner = line[start + 2 : end - 2]
    parts = _split(inner)
    if parts is None:
        if re.search(r"[=@~]", inner):
            problem(ProblemKind.SYNTAX, line_no, f"cannot read {line[start:end]!r}: put spaces around the operator, as {{{{ 0.5 = x }}}}")
        else:
            problem(
                ProblemKind.SYNTAX,
                line_no,
                f"cannot read {line[start:end]!r}: write {{{{ NUMBER = NAME }}}}, {{{{ NUMBER @ SOURCE }}}} or {{{{ LOW..HIGH ~ NAME }}}}",
            )
        return None
    documented, op, ref = parts
    doc_start = start + 2 + (len(inner) - len(inner.lstrip()))  # where the documented value begins
    doc_end = doc_start + len(documented)
    if not documented or not ref:
        problem(ProblemKind.SYNTAX, line_no, f"cannot read {line[start:end]!r}: both sides of {op!r} must be written")
        return None
    common = dict(line=line_no, end_line=line_no, start=start, end=end, doc_start=doc_start, doc_end=doc_end, documented=documented)
    if op == "@":
        value = parse_value(documented)
        if isinstance(value, str):
            problem(ProblemKind.SYNTAX, line_no, value)
            return None
        return QuotedTie(**common, source=ref, value=value)
    reference = _reference(ref)
    if isinstance(reference, str):
        problem(ProblemKind.SYNTAX, line_no, reference)
        return None
    snippet = reference.snippet or (last_run.snippet if last_run is not None else None)
    if snippet is None:
        problem(ProblemKind.SYNTAX, line_no, f"{{{{ {documented} {op} {ref} }}}} has no run block above it: name the snippet as SNIPPET:{ref}")
        return None
    if op == "~":
        bounds = parse_range(documented)
        if isinstance(bounds, str):
            problem(ProblemKind.SYNTAX, line_no, bounds)
            return None
        return RangeTie(**common, ref=reference, snippet=snippet, low=bounds[0], high=bounds[1])
    value = parse_value(documented)
    if isinstance(value, str):
        problem(ProblemKind.SYNTAX, line_no, value)
        return None
    return ComputedTie(**common, ref=reference, snippet=snippet, value=value)


@lru_cache(maxsize=16384)
def _reference(text: str) -> Reference | str:
    """A tie's NAME part read (a Reference is immutable, so one reading serves every page that
    writes the same text), or the message saying what is wrong with it."""
    try:
        return parse_reference(text)
    except ReferenceError_ as exc:
        return str(exc)
