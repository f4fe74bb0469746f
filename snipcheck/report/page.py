"""Turning a checked page into the Markdown the site renders, from its regions and their outcomes.

- a run block becomes the snippet's code (and, for a ``live`` run, the output this build measured);
- an output block becomes a checked-output block the verification page links back to;
- a computed tie becomes its documented number, linked to its row on the verification page;
- a range tie becomes the value this build measured (``4.1``, marked ``live-number``), linked to its
  row; the range it must lie in is in the link's title, on the verification page and, hidden, in
  the text search indexes;
- a quoted tie becomes its number, linked to the list of quoted numbers.
Each tie's link title says what stands behind the number (``computed by snippets/04_variance.py:
variance[4]; checked at the printed precision``): the site shows it on hover, focus and tap, and it
is the link's accessible description.
- a figure stays as written;
- a widget stays as written, followed by its checked data file in the attribute of an empty, hidden
  ``<div class="widget-data">`` (its script reads the data there: no fetch, which file:// refuses;
  not a script element, which instant navigation would run; not text, which search would index).
Problems (and, under ``mkdocs serve``, snippets still running) are listed at the top of the page.
Each region type has one handler in ``RENDER``: a tie gives the text that replaces its span, a
block the lines that replace its lines.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from ..check.records import Build, Outcome
from ..dispatch import ByRegion
from ..layout import VERIFICATION_PAGE
from ..problems import Problem, ProblemKind
from ..read.cells import cell_code
from ..read.page import Document
from ..read.regions import ComputedTie, Figure, OutputBlock, QuotedTie, RangeTie, RunBlock, Widget
from .survivors import raw_ties, visible_ties

RENDER = ByRegion("RENDER")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TIE_LINK = re.compile(r'<a\b[^>]*?\bid="(tie-\d+-\d+)"')


_MARKDOWN_SPECIAL = {c: f"&#{ord(c)};" for c in "\\`*_{}[]|$<>&"}


def md_text(text: str) -> str:
    """Text that Markdown (with arithmatex, tables and attr_list) shows exactly as written."""
    return "".join(_MARKDOWN_SPECIAL.get(c, c) for c in " ".join(text.split()))


def tie_id(line: int, position: int) -> str:
    return f"tie-{line}-{position}"


def output_id(line: int) -> str:
    return f"output-{line}"


def fence_for(text: str, fence: str) -> str:
    longest = max((len(m.group()) for m in re.finditer(r"`+|~+", text) if m.group()[0] == fence[0]), default=0)
    return fence[0] * max(len(fence), longest + 1, 3)


def _block(indent: str, fence: str, info: str, body: str) -> list[str]:
    fence = fence_for(body, fence)
    lines = [f"{indent}{fence}{info}"]
    lines += [f"{indent}{line}" if line else "" for line in body.rstrip("\n").split("\n")] if body.strip() else []
    lines.append(f"{indent}{fence}")
    return lines


def _title(text: str) -> str:
    """Text for a link's title attribute: no quote that ends it, no pipe that splits a table."""
    text = " ".join(text.split())
    if len(text) > 240:
        text = text[:237] + "..."
    return text.replace("\\", "\\\\").replace('"', "'").replace("|", "\\|")


def _shown(tie) -> str:
    if isinstance(tie, RangeTie):
        return tie.shown_range
    return tie.documented


def plain_title(doc: Document) -> str:
    """The first ``# heading`` with its ties shown as their numbers and links as their text."""
    lines = doc.text.split("\n")
    for number, line in enumerate(lines, start=1):
        if re.match(r"^#\s+", line):
            for tie in sorted((t for t in doc.ties if t.line == number), key=lambda t: -t.start):
                line = line[: tie.start] + _shown(tie) + line[tie.end :]
            text = re.sub(r"^#\s+|\s*#*\s*$", "", line)
            return _LINK.sub(r"\1", text).replace("`", "")
    return doc.uri


def render(build: Build, src_uri: str) -> str:
    """The page as the site shows it: snippet code included, ties rendered, problems flagged."""
    doc = build.docs[src_uri]
    lines = doc.text.split("\n")
    verification = posixpath.relpath(VERIFICATION_PAGE, posixpath.dirname(src_uri) or ".")
    inline, blocks = [], []
    for region in doc.regions:
        new = RENDER(region, build.outcome(region), build, verification)
        if isinstance(new, str):
            inline.append((region, new))
        elif new is not None:
            blocks.append((region, new))
    for tie, text in sorted(inline, key=lambda item: (item[0].line, -item[0].start)):
        line = lines[tie.line - 1]
        lines[tie.line - 1] = line[: tie.start] + text + line[tie.end :]
    for block, new_lines in sorted(blocks, key=lambda item: -item[0].line):
        lines[block.line - 1 : block.end_line] = new_lines
    header = _header(build, src_uri)
    if header:
        at = _after_front_matter(lines)
        lines[at:at] = header
    text = "\n".join(lines)
    return text if text.endswith("\n") else text + "\n"


@RENDER.register(QuotedTie)
def _quoted(tie: QuotedTie, outcome: Outcome, build: Build, verification: str) -> str:
    if not outcome.citations:
        return tie.documented
    cite = outcome.citations[0]
    attrs = f"#{tie_id(tie.line, tie.position)}"
    return f'[{tie.documented}]({verification}#{cite.anchor} "{_title("quoted from " + tie.source)}"){{ {attrs} .cited-number }}'


@RENDER.register(RangeTie)
def _range(tie: RangeTie, outcome: Outcome, build: Build, verification: str) -> str:
    check = outcome.checks[0] if outcome.checks else None
    result = build.results.get(tie.snippet)
    if check is None:
        if result is not None and result.pending:
            return f'{tie.shown_range} <span class="live-number">(still being measured)</span>'
        return tie.shown_range
    attrs = f"#{tie_id(tie.line, tie.position)}"
    title = _title(f"measured by {build.snippet_label(check.snippet)}: {check.what}; checked to lie in [{tie.low.text}, {tie.high.text}]")
    # search indexes the range, which every build shares, and not the measured value, which it does not
    measured = f'<span class="live-number" data-search-exclude>{md_text(check.computed)}</span>'
    link = f'[{measured}]({verification}#{check.anchor} "{title}"){{ {attrs} .checked-number .range-number }}'
    return f"{link}<span hidden>{tie.shown_range}</span>"


@RENDER.register(ComputedTie)
def _computed(tie: ComputedTie, outcome: Outcome, build: Build, verification: str) -> str:
    check = outcome.checks[0] if outcome.checks else None
    if check is None:
        return tie.documented
    attrs = f"#{tie_id(tie.line, tie.position)}"
    how = "checked exactly" if tie.documented in ("True", "False") else "checked at the printed precision"
    title = _title(f"computed by {build.snippet_label(check.snippet)}: {check.what}; {how}")
    return f'[{tie.documented}]({verification}#{check.anchor} "{title}"){{ {attrs} .checked-number }}'


@RENDER.register(RunBlock)
def _run(block: RunBlock, outcome: Outcome, build: Build, verification: str) -> list[str]:
    label = build.snippet_label(block.snippet)
    code = build.sources.get(block.snippet, f"# {label} is missing\n")
    if block.cell is not None:  # one cell of the file; the build refuses a page that leaves one out
        code = cell_code(code, block.cell) or f"# {label} has no cell {block.cell}\n"
        label = f"{label} ({block.cell})"
    out = _block(block.indent, block.fence, f'{block.language} title="{label}"', code)
    result = build.results.get(block.snippet)
    if block.live and result is not None:
        if result.pending:
            out += [
                "",
                f'{block.indent}!!! info "Still running"',
                f"{block.indent}    {label} is running; this page reloads with its output when it finishes.",
            ]
        elif result.error is None and (result.output(block.cell) or "").strip():
            out.append("")
            info = ' { .text .live-output title="Output, measured when this page was built" }'
            out += _block(block.indent, block.fence, info, result.output(block.cell))
    return out


@RENDER.register(OutputBlock)
def _output(block: OutputBlock, outcome: Outcome, build: Build, verification: str) -> list[str]:
    return _block(block.indent, block.fence, ' { .text .checked-output title="Output" }', block.text)


@RENDER.register(Figure)
def _figure(figure: Figure, outcome: Outcome, build: Build, verification: str) -> None:
    return None  # the image link stays as written; the figure is a file the build adds


@RENDER.register(Widget)
def _widget(widget: Widget, outcome: Outcome, build: Build, verification: str) -> list[str]:
    lines = widget.block.split("\n")
    if outcome.data is None:
        return lines  # no checked data: the widget shows its text alternative
    src = widget.src.replace("&", "&amp;").replace('"', "&quot;")
    values = outcome.data.replace("&", "&amp;").replace("'", "&#39;")  # a single-quoted attribute
    return [*lines, "", f'<div class="widget-data" hidden data-src="{src}" data-values=\'{values}\'></div>']


def _header(build: Build, src_uri: str) -> list[str]:
    problems = build.page_problems.get(src_uri, [])
    doc = build.docs[src_uri]
    pending = sorted({name for name in doc.snippets() if getattr(build.results.get(name), "pending", False)})
    header = []
    if problems:
        header += ['!!! failure "This page does not build: the checks below failed"', ""]
        for p in problems:
            first, *rest = p.message.split("\n")
            header.append(f"    - <code>{md_text(p.path)}:{p.line}</code>: {md_text(first)}" + (f" ({md_text(p.snippet)})" if p.snippet else ""))
            if rest:
                detail = "\n".join(line[4:] if line.startswith("    ") else line for line in rest)
                header += [""] + _block("        ", "```", "text", detail) + [""]
        header.append("")
    if pending:
        header += [
            '!!! info "Snippets still running"',
            "",
            "    "
            + ", ".join(f"<code>{md_text(build.snippet_label(n))}</code>" for n in pending)
            + ": their numbers are checked, and this page reloads, when they finish.",
            "",
        ]
    return header


def _after_front_matter(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def unrendered_ties(build: Build, src_uri: str, html_text: str, scan: Callable[[str], list[str]] = visible_ties) -> list[Problem]:
    """Problems for the ties of a page whose number did not come out as a linked element, and for
    every tie the page shows as written (``survivors.py``; a page with problems lists them, ties
    and all, so it is not read for survivors). ``scan``: what reads the HTML for them
    (``visible_ties``, or a ``Scans``' one that keeps each page's answer)."""
    doc = build.docs[src_uri]
    rendered = set(_TIE_LINK.findall(html_text))
    missing = []
    for tie in doc.ties:
        outcome = build.outcome(tie)
        if not (outcome.checks or outcome.citations):
            continue
        if tie_id(tie.line, tie.position) not in rendered:
            missing.append(
                Problem(
                    ProblemKind.PLACEMENT, doc.path, tie.line, "a tie did not render as a number (is it inside code, math, link text or raw HTML?)"
                )
            )
    if not any(problem.path == doc.path for problem in build.problems):
        missing += raw_ties(doc, html_text, scan)
    return missing
