"""Accepting an intended change: write the computed values back into the Markdown.

Only documented values move: the body of an output block whose output drifted, and the number
inside a drifted tie (written at the precision it had). Everything else stays byte for byte.
"""

from __future__ import annotations

import difflib

from .check import LookupError_, lookup
from .document import Document
from .numeric import compare_output, tokenize
from .runner import SnippetResult


def accepted_text(doc: Document, results: dict[str, SnippetResult]) -> str:
    """The page's text with every drifted documented value replaced by the computed one."""
    lines = doc.text.splitlines(keepends=True)
    for tie in sorted(doc.ties, key=lambda t: (t.line, -t.start)):
        if tie.op != "=":
            continue
        result = results.get(tie.snippet)
        if result is None or result.error is not None:
            continue
        try:
            value = lookup(result.values, tie.expr)
        except LookupError_:
            continue
        new = _rewrite_numbers(tie.documented, value)
        if new != tie.documented:
            line = lines[tie.line - 1]
            inner = line[tie.start : tie.end]
            lines[tie.line - 1] = line[: tie.start] + inner.replace(tie.documented, new, 1) + line[tie.end :]
    for run in sorted(doc.runs, key=lambda r: -r.line):
        result = results.get(run.snippet)
        if run.output is None or run.live or result is None or result.error is not None:
            continue
        if not compare_output(run.output.text, result.stdout):
            continue
        out = run.output
        body = [f"{out.indent}{line}\n" if line else "\n" for line in result.stdout.rstrip("\n").splitlines()]
        lines[out.line : out.end_line - 1] = body
    return "".join(lines)


def _rewrite_numbers(documented: str, value) -> str:
    import numpy as np

    computed = np.asarray(value, dtype=float).ravel().tolist()
    numbers = [t for t in tokenize(documented) if t.number is not None]
    if len(numbers) != len(computed):
        return documented
    pieces, pos = [], 0
    for token, got in zip(numbers, computed):
        at = documented.index(token.text, pos)
        text = token.text if token.number.accepts(repr(got)) else token.number.format_like(got)
        pieces += [documented[pos:at], text]
        pos = at + len(token.text)
    return "".join(pieces) + documented[pos:]


def unified_diff(path: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{path}"))

