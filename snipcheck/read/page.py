"""Reading a Markdown page into regions: run blocks, output blocks, ties and figures.

The syntax, all of it:

    ```python run="02_one_head.py"          <- the code comes from snippets/02_one_head.py; the
    ```                                         block stays empty. Options: timeout=SECONDS,
                                                memory=MIB, live, cell=NAME (one cell of the file:
                                                read/cells.py).

    ```output                               <- what the snippet prints, as the page documents it;
    [[0.401 0.198 0.401]]                       must follow a run block (blank lines between only).
    ```

    Row C gives {{ 0.248 = weights[2, 0] }}       <- a number tied to a value the nearest run block
    Row C gives {{ 0.248 = 02_one_head:weights[2, 0] }}  above computed, or to a named snippet's;
    BLEU {{ 27.3 @ Vaswani et al. (2017), Table 2 }}     <- a number quoted from a source;
    It grows {{ 3..5 ~ growth[2] }}-fold                 <- a live measurement within a range.

    ![Alt text that describes the figure](figures/02_steps/steps.svg)   <- a figure a snippet drew.

    <div class="widget" data-widget="NAME" data-src="figures/04_widget/data.json">  <- a script
    Text alternative: what the widget shows.                      draws a data file a snippet
    </div>                                                        wrote (read/widgets.py).

Line numbers are 1-based and count from the top of the file, front matter included, at \\n,
\\r\\n or \\r only, as MkDocs counts them.

Where a tie may stand: in prose, in headings, lists, tables and admonition bodies. A tie in a
fenced code block or a code span is code, shown as written and not checked. A tie anywhere it
would not render as a number (inline or display math, an indented code block, link text or a
link's address, an HTML tag or a raw HTML block, an admonition or tab title, the front matter)
is refused with its file:line.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass, field

from ..numeric import split_lines, tokenize
from ..problems import Problem, ProblemKind
from .regions import Figure, NamedTie, OutputBlock, Region, RunBlock, Tie, Widget
from .syntax import ABBREVIATION, BLOCK_TAG, opens_fence
from .ties import forbidden_spans, mask_code, read_tie, tie_spans
from .widgets import read_widget

MAX_TIMEOUT = 24 * 3600.0
MAX_MEMORY_MB = 1 << 20

_FENCE = re.compile(r"^(?P<indent>[ \t>]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*?)[ \t]*$")
_RUN = re.compile(r"""(?:^|\s)run=(?P<q>["']?)(?P<name>[^"'\s]*)(?P=q)""")
_COMMENT = re.compile(r"<!--.*?-->")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)[^)]*\)")
_OPENER = re.compile(r"^(?P<indent>[ ]*)(?P<mark>!!!|\?\?\?\+?|===\+?)[ ]")
_LIST = re.compile(r"^(?P<indent>[ ]*)(?:[-*+]|\d{1,9}[.)])(?:[ ]+|$)")
_FOOTNOTE = re.compile(r"^(?P<indent>[ ]*)\[\^[^\]]+\]:")
_MARKDOWN_ATTR = re.compile(r"""\bmarkdown(?:\s*=\s*["']?(?:1|block|span)["']?)?(?=[\s>/]|$)""")


@dataclass
class Document:
    """A parsed page: its regions, in page order, and the problems reading it found."""

    path: str  # as reported in problems: relative to the project, e.g. docs/02-one-head.md
    text: str  # with \n line endings
    uri: str = ""  # relative to the docs folder, as links on the page are
    regions: list[Region] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def runs(self) -> list[RunBlock]:
        return [r for r in self.regions if isinstance(r, RunBlock)]

    @property
    def outputs(self) -> list[OutputBlock]:
        return [r for r in self.regions if isinstance(r, OutputBlock)]

    @property
    def ties(self) -> list[Tie]:
        return [r for r in self.regions if isinstance(r, Tie)]

    @property
    def figures(self) -> list[Figure]:
        return [r for r in self.regions if isinstance(r, Figure)]

    @property
    def widgets(self) -> list[Widget]:
        return [r for r in self.regions if isinstance(r, Widget)]

    def snippets(self) -> list[str]:
        """Every snippet this page needs, run blocks first, in page order, without repeats."""
        names = [run.snippet for run in self.runs] + [t.snippet for t in self.ties if isinstance(t, NamedTie)]
        return list(dict.fromkeys(names))

    def problem(self, kind: ProblemKind, line: int, message: str, snippet: str | None = None) -> None:
        self.problems.append(Problem(kind, self.path, line, message, snippet))


def parse(text: str, path: str, uri: str | None = None) -> Document:
    """Read the page's regions; note malformed and misplaced ones."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    doc = Document(path=path, text=text, uri=uri if uri is not None else path)
    _Scanner(doc, split_lines(text)).run()
    return doc


def _indent_of(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


class _Scanner:
    """One pass over the lines, tracking the blocks Markdown would see."""

    def __init__(self, doc: Document, lines: list[str]) -> None:
        self.doc, self.lines = doc, lines
        self.containers: list[int] = []  # content indents of open admonitions, tabs, list items
        self.last_run: RunBlock | None = None
        self.since_run_closed = False

    def run(self) -> None:
        lines, i = self.lines, 0
        i = self._front_matter()
        prev_blank = True
        while i < len(lines):
            line = lines[i]
            if not line.strip():
                prev_blank = True
                i += 1
                continue
            indent = _indent_of(line)
            while self.containers and indent < self.containers[-1]:
                self.containers.pop()
            base = self.containers[-1] if self.containers else 0
            stripped = line.strip()
            fence = _FENCE.match(line)
            if fence and not _RUN.search(fence["info"]) and not opens_fence(line[len(fence["indent"]) :]):
                fence = None  # superfences takes it for a paragraph, and so does the reader
            if fence and not (prev_blank and indent >= base + 4):
                i = self._fence(i, fence)
                prev_blank = False
                continue
            if prev_blank and indent >= base + 4:
                i = self._indented_code(i, base)
                prev_blank = True
                continue
            prev_blank = False
            self.since_run_closed = False
            if stripped.startswith("<!--") and "-->" not in stripped[4:]:
                i = next((j for j in range(i + 1, len(lines)) if "-->" in lines[j]), len(lines) - 1) + 1
                continue
            math_end = _display_math(stripped)
            if math_end is not None:
                i = self._math_block(i, math_end)
                continue
            if ABBREVIATION.match(line):
                self._refuse_ties(i, "in an abbreviation's definition, which shows only as a tooltip")
                i += 1
                continue
            block = BLOCK_TAG.match(stripped)
            if block and indent < base + 4:
                i = self._html_block(i, block)
                continue
            opener = _OPENER.match(line.expandtabs(4))
            if opener:
                self._refuse_ties(i, "in an admonition or tab title, which is not rendered as Markdown: write it in the body")
                self.containers.append(len(opener["indent"]) + 4)
                i += 1
                continue
            listed = _LIST.match(line.expandtabs(4)) or _FOOTNOTE.match(line.expandtabs(4))
            if listed:
                self.containers.append(len(listed["indent"]) + 4)
            self._prose(i)
            i += 1

    # -- blocks -------------------------------------------------------------------------------------
    def _front_matter(self) -> int:
        lines = self.lines
        if lines and lines[0].strip() == "---":
            for j in range(1, len(lines)):
                if lines[j].strip() in ("---", "..."):
                    for k in range(1, j):
                        self._refuse_ties(k, "in the front matter, which is not rendered as Markdown")
                    return j + 1
        return 0

    def _math_block(self, start: int, end_marker: str) -> int:
        end = start
        if end_marker:
            end = next((j for j in range(start + 1, len(self.lines)) if end_marker in self.lines[j]), len(self.lines) - 1)
        for j in range(start, end + 1):
            self._refuse_ties(j, "inside display math, where it would not render: write the number in prose")
        return end + 1

    def _html_block(self, start: int, block: re.Match) -> int:
        tag = block["tag"].lower()
        if _MARKDOWN_ATTR.search(block["attrs"] or ""):
            self._prose(start)  # md_in_html: the content is Markdown, the opening line's rest too
            return start + 1
        opening = re.compile(rf"<{tag}(?=[\s>/])", re.IGNORECASE)
        closing = re.compile(rf"</{tag}\s*>", re.IGNORECASE)
        depth, j = 0, start
        while j < len(self.lines):
            depth += len(opening.findall(self.lines[j])) - len(closing.findall(self.lines[j]))
            self._refuse_ties(j, "inside a raw HTML block, which Markdown does not render: add the markdown attribute to the tag, or move it out")
            if depth <= 0 or (not self.lines[j].strip() and j > start):
                break
            j += 1
        last = min(j, len(self.lines) - 1)
        while last > start and not self.lines[last].strip():
            last -= 1
        widget, problem = read_widget("\n".join(self.lines[start : last + 1]), start + 1, last + 1)
        if problem:
            self.doc.problem(ProblemKind.SYNTAX, start + 1, problem)
        elif widget is not None:
            self.doc.regions.append(widget)
        return j + 1

    def _indented_code(self, start: int, base: int) -> int:
        j = start
        while j < len(self.lines) and (not self.lines[j].strip() or _indent_of(self.lines[j]) >= base + 4):
            if self.lines[j].strip():
                self._refuse_ties(
                    j,
                    "in an indented code block, where it is shown as code: "
                    "indent it to its block's level (4 spaces inside an admonition or list item)",
                )
            j += 1
        return j

    def _fence(self, i: int, match: re.Match) -> int:
        doc, lines = self.doc, self.lines
        indent, fence, info = match["indent"], match["fence"], match["info"]
        end = None
        for j in range(i + 1, len(lines)):
            if lines[j].strip(" \t>") == fence:  # superfences: the same fence, no longer one
                end = j
                break
        if end is None:
            doc.problem(ProblemKind.SYNTAX, i + 1, f"code fence {fence} is never closed")
            self.since_run_closed = False
            return len(lines)
        body = "\n".join(_dedent(line, indent) for line in lines[i + 1 : end])
        words = info.split()
        language = words[0] if words else ""
        run_match = _RUN.search(info)
        if run_match:
            run = self._run_block(info, run_match, i, end, indent, fence, language, body)
            if run is not None:
                doc.regions.append(run)
                self.last_run, self.since_run_closed = run, True
            else:
                self.since_run_closed = False
            return end + 1
        if language == "output" or info.startswith("output "):
            out = OutputBlock(i + 1, end + 1, indent, fence, body, tuple(tokenize(body)))
            doc.regions.append(out)
            if self.last_run is not None and self.since_run_closed and self.last_run.output is None:
                self.last_run.output, out.run = out, self.last_run
            else:
                doc.problem(ProblemKind.SYNTAX, i + 1, "output block does not follow a run block (it documents no snippet)")
        self.since_run_closed = False
        return end + 1

    def _run_block(self, info, run_match, i, end, indent, fence, language, body) -> RunBlock | None:
        doc = self.doc
        name = run_match["name"]
        if not name or name.startswith("/") or "\\" in name or ".." in name.split("/") or posixpath.isabs(name):
            doc.problem(ProblemKind.SYNTAX, i + 1, f"run={name!r} must name a file inside the snippets folder")
            return None
        run = RunBlock(i + 1, end + 1, indent, fence, language, posixpath.normpath(name))
        try:
            options = shlex.split(info[run_match.end() :])
        except ValueError as exc:
            doc.problem(ProblemKind.SYNTAX, i + 1, f"cannot read run options: {exc}")
            options = []
        for option in options:
            key, _, value = option.partition("=")
            if key == "timeout" and value:
                try:
                    seconds = float(value)
                except ValueError:
                    seconds = float("nan")
                if not 0 < seconds <= MAX_TIMEOUT:  # refuses nan, inf, 0 and negatives too
                    doc.problem(ProblemKind.SYNTAX, i + 1, f"timeout must be a positive number of seconds (at most {MAX_TIMEOUT:g}), not {value!r}")
                else:
                    run.timeout = seconds
            elif key == "memory" and value:
                if not value.isdigit() or not 0 < int(value) <= MAX_MEMORY_MB:
                    doc.problem(ProblemKind.SYNTAX, i + 1, f"memory must be a whole number of MiB between 1 and {MAX_MEMORY_MB}, not {value!r}")
                else:
                    run.memory_mb = int(value)
            elif key == "live" and not value:
                run.live = True
            elif key == "cell" and value:
                run.cell = value
            else:
                doc.problem(ProblemKind.SYNTAX, i + 1, f"unknown run option {option!r} (known: timeout=SECONDS, memory=MIB, live, cell=NAME)")
        if body.strip():
            doc.problem(ProblemKind.SYNTAX, i + 1, "a run block must be empty: its code is included from the snippet file", run.snippet)
        return run

    # -- prose --------------------------------------------------------------------------------------
    def _refuse_ties(self, i: int, where: str) -> None:
        if "{{" not in self.lines[i]:
            return  # masking code only blanks characters out: it cannot make a tie
        line = mask_code(self.lines[i])
        if "{{" in line:
            self.doc.problem(ProblemKind.PLACEMENT, i + 1, f"a tie {where}")

    def _prose(self, i: int) -> None:
        doc, line_no = self.doc, i + 1
        line = self.lines[i]
        if "{{" not in line and "![" not in line:
            return  # no tie and no image: masking blanks characters out, it cannot make either
        visible = _COMMENT.sub(lambda m: " " * len(m.group()), mask_code(line))
        spans = tie_spans(doc.problem, visible, line_no)
        masked = list(visible)
        for start, end in spans:
            masked[start:end] = "x" * (end - start)
        masked_text = "".join(masked)
        forbidden = forbidden_spans(masked_text)
        position = 0
        for start, end in spans:
            place = next((what for lo, hi, what in forbidden if lo <= start and end <= hi), None)
            if place is not None:
                doc.problem(ProblemKind.PLACEMENT, line_no, f"a tie {place}")
                continue
            position += 1
            tie = read_tie(doc.problem, line, line_no, start, end, self.last_run)
            if tie is not None:
                tie.position = position
                doc.regions.append(tie)
        for match in _IMAGE.finditer(masked_text):
            doc.regions.append(Figure(line_no, line_no, match["alt"].strip(), match["src"]))


def _display_math(stripped: str) -> str | None:
    """None if the line opens no display math; else what closes it ("" if the line closes it itself)."""
    for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("\\begin{", "\\end{")):
        if stripped.startswith(opener):
            return "" if closer in stripped[len(opener) :] else closer
    return None


def _dedent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip()
