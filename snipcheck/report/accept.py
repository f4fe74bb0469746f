"""Accepting an intended change: write the computed values back into the Markdown.

Only documented values move: the body of an output block whose output drifted (its fence made
longer if the new output holds a fence of its own), and the value inside a drifted computed tie,
written at the precision it had (a list whose length changed is written anew, in the same style).
Every other byte stays as it was, line endings included. Range ties and quoted numbers are never
rewritten: a range is a judgement, a quote is a source's.

Writing is all or nothing: every page is checked unchanged since it was read and writable, all
new texts are written to temporary files beside the pages, and only then renamed into place; if
a rename fails, the pages already replaced are restored.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..check.records import Build, Outcome
from ..dispatch import ByRegion
from ..numeric import Number
from ..read.page import Document
from ..read.regions import ComputedTie, Figure, OutputBlock, QuotedTie, RangeTie, RunBlock, Widget
from ..run.result import SnippetResult
from ..values.computed import Looked
from ..values.documented import ValueKind
from .page import fence_for

ACCEPT = ByRegion("ACCEPT")
Lines = list[tuple[str, str]]  # (content, line ending) of every line of the page

_RAW_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def raw_lines(text: str) -> list[tuple[str, str]]:
    """(content, line ending) of every line, endings kept exactly as written."""
    out = []
    for match in _RAW_LINE.finditer(text):
        line = match.group()
        content = line.rstrip("\r\n")
        out.append((content, line[len(content) :]))
    return out


def accepted_text(doc: Document, build: Build, raw: str | None = None) -> str:
    """The page's text with every drifted documented value replaced by the computed one.

    ``raw`` is the page as stored (its own line endings); by default the parsed text. What drifted
    is what the outcomes say; each region type has its handler in ``ACCEPT``."""
    lines = raw_lines(raw if raw is not None else doc.text)
    if len(lines) < len(doc.text.split("\n")):
        lines += [("", "")] * (len(doc.text.split("\n")) - len(lines))
    # Ties first, right to left in each line (a rewrite leaves the columns before it as they were),
    # then blocks from the bottom up (a block that grows leaves the lines above it as they were).
    order = sorted(
        doc.regions, key=lambda r: (isinstance(r, OutputBlock), -r.line if isinstance(r, OutputBlock) else r.line, -getattr(r, "start", 0))
    )
    for region in order:
        ACCEPT(region, build.outcome(region), build, lines)
    return "".join(content + ending for content, ending in lines)


@ACCEPT.register(ComputedTie)
def _accept_tie(tie: ComputedTie, outcome: Outcome, build: Build, lines: Lines) -> None:
    if not outcome.drifted or outcome.value is None or not outcome.checks or outcome.checks[0].ok:
        return
    new = rewrite_value(tie, outcome.value)
    content, ending = lines[tie.line - 1]
    lines[tie.line - 1] = (content[: tie.doc_start] + new + content[tie.doc_end :], ending)


@ACCEPT.register(OutputBlock)
def _accept_output(out: OutputBlock, outcome: Outcome, build: Build, lines: Lines) -> None:
    run = out.run
    result: SnippetResult | None = build.results.get(run.snippet) if run is not None else None
    if not outcome.drifted or run.live or result is None or result.error is not None or result.pending:
        return
    stdout = result.output(run.cell)  # a cell's block documents that cell's part alone
    if stdout is not None:
        lines[out.line - 1 : out.end_line] = _new_block(out, stdout, lines[out.line - 1], lines[out.end_line - 1])


@ACCEPT.register(RunBlock, QuotedTie, RangeTie, Figure, Widget)
def _accept_nothing(region, outcome: Outcome, build: Build, lines: Lines) -> None:
    """A run block holds no documented value; a range is a judgement, a quote is a source's, a
    figure or a widget's data is written anew: none is rewritten."""


def _new_block(out: OutputBlock, stdout: str, opening: tuple[str, str], closing: tuple[str, str]) -> list[tuple[str, str]]:
    ending = opening[1] or "\n"
    body = stdout.rstrip("\n").replace("\r\n", "\n").replace("\r", "\n").split("\n") if stdout.strip() else []
    fence = fence_for("\n".join(body), out.fence)
    open_content = opening[0].replace(out.fence, fence, 1) if fence != out.fence else opening[0]
    close_content = closing[0].replace(out.fence, fence, 1) if fence != out.fence else closing[0]
    lines = [(open_content, ending)]
    lines += [((out.indent + line) if line else "", ending) for line in body]
    lines.append((close_content, closing[1]))
    return lines


def rewrite_value(tie: ComputedTie, looked: Looked) -> str:
    """The tie's documented text with the computed value written in, in the same style."""
    value = tie.value
    if looked.kind == "bool":
        data = looked.data if not looked.shape else looked.data
        if not looked.shape:
            return "True" if data else "False"
    flat = looked.flat()
    if (
        value.kind is not ValueKind.BOOL
        and len(flat) == len(value.atoms)
        and all(a.imaginary == (part == "im") for a, (part, _) in zip(value.atoms, flat, strict=True))
    ):
        pieces, pos = [], 0
        for atom, (part, got) in zip(value.atoms, flat, strict=True):
            exact = repr(got) if isinstance(got, float) else str(got)
            text = atom.text if atom.number.accepts(exact) else _like(atom.number, got, part == "im", atom.text)
            pieces += [value.text[pos : atom.start], text]
            pos = atom.end
        return "".join(pieces) + value.text[pos:]
    like = next((a.number for a in value.atoms if a.number is not None), Number("0.000"))
    opener = "(" if value.text.lstrip().startswith("(") else "["
    return _format_nested(looked.data, looked.kind, like, opener)


def _like(number: Number, value, imaginary: bool, text: str) -> str:
    written = number.format_like(value)
    if not imaginary:
        return written
    glued = text[:1] in "+-\u2212"
    return (("+" if not written.startswith("-") else "") if glued else "") + written + "j"


def _format_nested(data, kind: str, like: Number, opener: str) -> str:
    closer = {"(": ")", "[": "]"}[opener]
    if kind == "complex" and isinstance(data, list) and len(data) == 2 and not isinstance(data[0], list):
        re_, im = data
        return like.format_like(re_) + ("+" if im >= 0 else "") + like.format_like(im) + "j"
    if isinstance(data, list):
        return opener + ", ".join(_format_nested(d, kind, like, opener) for d in data) + closer
    if isinstance(data, bool):
        return "True" if data else "False"
    return like.format_like(data) if not isinstance(data, int) else str(data)


@dataclass
class PageWrite:
    path: Path
    original: bytes
    new: bytes


class WriteRefused(Exception):
    pass


def write_all(writes: list[PageWrite]) -> None:
    """Write every page or none; raise WriteRefused saying why nothing was written."""
    refused = []
    for w in writes:
        try:
            if w.path.read_bytes() != w.original:
                refused.append(f"{w.path}: changed since it was read (by an editor?): run accept again")
            elif not os.stat(w.path).st_mode & 0o200:
                refused.append(f"{w.path}: the page is read-only: make it writable, then run accept again")
        except OSError as exc:
            refused.append(f"{w.path}: cannot read it again ({exc.strerror or exc})")
    if refused:
        raise WriteRefused("nothing was written:\n" + "\n".join(refused))
    temps: list[tuple[PageWrite, Path]] = []
    try:
        for w in writes:
            tmp = w.path.with_name(f".{w.path.name}.snipcheck-{os.getpid()}-{len(temps)}")
            with open(tmp, "xb") as handle:
                handle.write(w.new)
            os.chmod(tmp, os.stat(w.path).st_mode & 0o7777)
            temps.append((w, tmp))
    except OSError as exc:
        for _, tmp in temps:
            _unlink(tmp)
        raise WriteRefused(f"nothing was written: cannot write beside {w.path} ({exc.strerror or exc})") from None
    done: list[PageWrite] = []
    try:
        for w, tmp in temps:
            if w.path.read_bytes() != w.original:
                raise OSError(f"{w.path} changed while accept was writing")
            os.replace(tmp, w.path)
            done.append(w)
    except OSError as exc:
        for w in done:
            try:
                w.path.write_bytes(w.original)
            except OSError:
                pass
        for _, tmp in temps:
            _unlink(tmp)
        raise WriteRefused(f"nothing was written (the pages already replaced were restored): {exc}") from None


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def unified_diff(path: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{path}", tofile=f"b/{path}"))


__all__ = ["ACCEPT", "PageWrite", "WriteRefused", "accepted_text", "raw_lines", "rewrite_value", "unified_diff", "write_all"]
