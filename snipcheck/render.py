"""Turning a checked page into the Markdown the site renders, and writing the verification page."""

from __future__ import annotations

import html
import posixpath
from collections import defaultdict

from .check import Check, Citation
from .document import Document, Problem
from .runner import SnippetResult

VERIFICATION_PAGE = "verification.md"


def _fence_for(text: str, fence: str) -> str:
    longest = max((len(run) for run in text.split() if set(run) == {fence[0]}), default=0)
    return fence[0] * max(len(fence), longest + 1, 3)


def _block(indent: str, fence: str, info: str, body: str) -> list[str]:
    fence = _fence_for(body, fence)
    lines = [f"{indent}{fence}{info}"]
    lines += [f"{indent}{line}" if line else "" for line in body.rstrip("\n").splitlines()]
    lines.append(f"{indent}{fence}")
    return lines


def _title(text: str) -> str:
    return text.replace('"', "'")


def render(doc: Document, src_uri: str, snippet_sources: dict[str, str], results: dict[str, SnippetResult],
           checks: list[Check], citations: list[Citation], problems: list[Problem]) -> str:
    """The page as the site shows it: snippet code included, ties rendered, problems flagged."""
    lines = doc.text.splitlines()
    verification = posixpath.relpath(VERIFICATION_PAGE, posixpath.dirname(src_uri) or ".")
    by_line = {(c.line, c.documented): c for c in checks if c.what != "output"}
    cited = {(c.line, c.documented): c for c in citations}
    for tie in sorted(doc.ties, key=lambda t: (t.line, -t.start)):
        line = lines[tie.line - 1]
        if tie.op == "=" and (tie.line, tie.documented) in by_line:
            check = by_line[(tie.line, tie.documented)]
            title = _title(f"Computed at build: {check.what} = {check.computed} (snippets/{check.snippet})")
            new = f'[{tie.documented}]({verification}#{check.anchor} "{title}"){{ .checked-number }}'
        elif tie.op == "@" and (tie.line, tie.documented) in cited:
            title = _title(f"Quoted from {tie.ref}")
            new = f'[{tie.documented}]({verification}#{cited[(tie.line, tie.documented)].anchor} "{title}"){{ .cited-number }}'
        else:
            new = tie.documented
        lines[tie.line - 1] = line[: tie.start] + new + line[tie.end :]
    blocks = [(run.line, run.end_line, run) for run in doc.runs] + [(o.line, o.end_line, o) for o in doc.outputs]
    for start, end, block in sorted(blocks, key=lambda b: -b[0]):
        lines[start - 1 : end] = _render_block(block, snippet_sources, results)
    if problems:
        header = ['!!! failure "This page does not build: the checks below failed"', ""]
        header += [f"    - `{html.escape(str(p))}`" if "\n" not in p.message else f"    - `{html.escape(p.path)}:{p.line}`: {html.escape(p.message.splitlines()[0])} (traceback in the build log)" for p in problems]
        header.append("")
        at = _after_front_matter(lines)
        lines[at:at] = header
    return "\n".join(lines) + "\n"


def _render_block(block, snippet_sources: dict[str, str], results: dict[str, SnippetResult]) -> list[str]:
    if hasattr(block, "snippet"):  # a run block
        code = snippet_sources.get(block.snippet, f"# snippets/{block.snippet} is missing\n")
        out = _block(block.indent, block.fence, f'{block.language} title="snippets/{block.snippet}"', code)
        result = results.get(block.snippet)
        if block.live and result is not None and result.error is None and result.stdout.strip():
            out.append("")
            out += _block(block.indent, block.fence, ' { .text .live-output title="Output measured at build time (not checked: timings vary from run to run)" }', result.stdout)
        return out
    return _block(block.indent, block.fence, ' { .text .checked-output title="Output (checked against this build\'s run)" }', block.text)


def _after_front_matter(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def verification_page(checks: list[Check], citations: list[Citation], titles: dict[str, str], docs_prefix: str) -> str:
    """Every checked number and every quoted number on the site, page by page."""
    by_page: dict[str, list[Check]] = defaultdict(list)
    for check in checks:
        by_page[check.path].append(check)
    snippets = {c.snippet for c in checks}
    out = [
        "# Verification",
        "",
        "Every number on this site is either **computed** by a snippet when the site is built, and",
        "checked against the value the page states, or **quoted** from a source and marked as such.",
        "This page is written by the build itself. A documented value passes when the computed value",
        "lies within the precision it is written at: `0.248` accepts anything in [0.2475, 0.2485], an",
        "integer only itself. A single drift fails the build.",
        "",
        f"- **{len(checks)}** numbers checked on **{len(by_page)}** pages, computed by **{len(snippets)}** snippets;",
        f"- **{len(citations)}** numbers quoted from sources.",
        "",
        "## Computed and checked",
        "",
    ]
    for path in sorted(by_page):
        src_uri = posixpath.relpath(path, docs_prefix) if docs_prefix else path
        rows = by_page[path]
        failed = sum(not c.ok for c in rows)
        summary = f"{len(rows)} numbers, " + (f"**{failed} failing**" if failed else "all pass")
        out += [f"### {titles.get(src_uri, src_uri)}", "", f"[{src_uri}]({src_uri}): {summary}.", ""]
        out += ['<div class="verification-table" markdown>', ""]
        out += ["| Line | Documented | Computed | Result | Checked as | Snippet |", "| ---: | --- | --- | --- | --- | --- |"]
        for c in rows:
            what = "printed output" if c.what == "output" else f"`{c.what}`"
            status = "pass" if c.ok else "**FAIL**"
            computed = c.computed.replace("\n", " ").replace("|", "\\|")
            out.append(f'| <span id="{c.anchor}"></span>{c.line} | {c.documented} | {computed} | {status} | {what} | `snippets/{c.snippet}` |')
        out += ["", "</div>", ""]
    out += ["## Quoted from sources", "", "These numbers are not computed here; they are reported by the source named.", ""]
    out += ["| Page | Line | Number | Source |", "| --- | ---: | --- | --- |"]
    for c in citations:
        src_uri = posixpath.relpath(c.path, docs_prefix) if docs_prefix else c.path
        out.append(f'| [{titles.get(src_uri, src_uri)}]({src_uri}) | <span id="{c.anchor}"></span>{c.line} | {c.documented} | {c.source} |')
    out.append("")
    return "\n".join(out)
