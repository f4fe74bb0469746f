"""Reading a Markdown page: where it runs snippets, what output it documents, what prose it ties.

The syntax, all of it:

    ```python run="02_one_head.py"          <- the code comes from snippets/02_one_head.py; the
    ```                                         block stays empty. Options: timeout=120, live.

    ```output                               <- what the snippet prints, as the page documents it;
    [[0.401 0.198 0.401]]                       must follow a run block (blank lines between only).
    ```

    Row C gives {{ 0.248 = weights[2, 0] }}       <- a number tied to a value the nearest run block
    Row C gives {{ 0.248 = 02_one_head:weights[2, 0] }}  above computed, or to a named snippet's;
    BLEU {{ 27.3 @ Vaswani et al. (2017), Table 2 }}     <- a number quoted from a source.

    ![Alt text that describes the figure](figures/02_steps/steps.svg)   <- a figure a snippet drew.

Line numbers are 1-based and count from the top of the file, front matter included.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*?)[ \t]*$")
_RUN = re.compile(r"""\brun=(?P<q>["']?)(?P<name>[^"'\s]+)(?P=q)""")
_TIE = re.compile(r"\{\{\s*(?P<doc>.+?)\s+(?P<op>[=@])\s+(?P<ref>.+?)\s*\}\}")
_CODE_SPAN = re.compile(r"(`+).+?\1")
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)[^$]+?(?<!\\)\$")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)[^)]*\)")
_REF = re.compile(r"^(?:(?P<snippet>[\w.-]+):)?(?P<expr>[A-Za-z_]\w*(?:\[[^\]]*\])*(?:\.shape(?:\[[^\]]*\])?)?)$")

FIGURES_DIR = "figures"


@dataclass
class RunBlock:
    line: int  # the opening fence
    end_line: int  # the closing fence
    indent: str
    fence: str
    language: str
    snippet: str  # file name relative to the snippets folder
    timeout: float | None = None
    live: bool = False
    body: str = ""
    output: "OutputBlock | None" = None


@dataclass
class OutputBlock:
    line: int
    end_line: int
    indent: str
    fence: str
    text: str

    @property
    def first_text_line(self) -> int:
        return self.line + 1


@dataclass
class Tie:
    """A number in the prose: computed (op '=') or quoted (op '@')."""

    line: int
    start: int  # column span of the whole {{ ... }} in its line
    end: int
    documented: str
    op: str
    ref: str
    snippet: str | None = None  # resolved snippet for op '='
    expr: str | None = None


@dataclass
class Figure:
    line: int
    alt: str
    src: str


@dataclass
class Problem:
    """Something wrong with a page, with where it is."""

    path: str
    line: int
    message: str
    snippet: str | None = None

    def __str__(self) -> str:
        where = f" ({self.snippet})" if self.snippet else ""
        return f"{self.path}:{self.line}: {self.message}{where}"


@dataclass
class Document:
    path: str  # as reported in problems: relative to the project, e.g. docs/02-one-head.md
    text: str
    uri: str = ""  # relative to the docs folder, as links on the page are
    runs: list[RunBlock] = field(default_factory=list)
    outputs: list[OutputBlock] = field(default_factory=list)
    ties: list[Tie] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def snippets(self) -> list[str]:
        """Every snippet this page needs, run blocks first, in page order, without repeats."""
        names = [run.snippet for run in self.runs] + [t.snippet for t in self.ties if t.snippet]
        return list(dict.fromkeys(names))


def parse(text: str, path: str, uri: str | None = None) -> Document:
    """Read the page's run blocks, output blocks, ties and figures; note malformed ones."""
    doc = Document(path=path, text=text, uri=uri if uri is not None else path)
    lines = text.splitlines()
    last_run: RunBlock | None = None
    since_run_closed = False  # only blank lines seen since the last run block closed
    in_math = False  # inside a $$ ... $$ display block
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            if lines[i].strip():
                since_run_closed = False
                if lines[i].strip().startswith("$$") and lines[i].count("$$") == 1:
                    in_math = not in_math
                if in_math or lines[i].strip().startswith("$$"):
                    if "{{" in lines[i]:
                        doc.problems.append(Problem(path, i + 1, "a tie inside math does not render: write the number in prose"))
                else:
                    _scan_prose(doc, lines[i], i + 1, last_run)
            i += 1
            continue
        indent, fence, info = match["indent"], match["fence"], match["info"]
        end = _closing_fence(lines, i, fence)
        if end is None:
            doc.problems.append(Problem(path, i + 1, f"code fence {fence} is never closed"))
            return doc
        body = "\n".join(_dedent(line, indent) for line in lines[i + 1 : end])
        words = info.split()
        language = words[0] if words else ""
        run_match = _RUN.search(info)
        if run_match:
            run = _run_block(doc, info, run_match, i, end, indent, fence, language, body)
            doc.runs.append(run)
            last_run, since_run_closed = run, True
        elif language == "output":
            out = OutputBlock(i + 1, end + 1, indent, fence, body)
            doc.outputs.append(out)
            if last_run is not None and since_run_closed and last_run.output is None:
                last_run.output = out
            else:
                doc.problems.append(
                    Problem(path, i + 1, "output block does not follow a run block (it documents no snippet)")
                )
            since_run_closed = False
        else:
            since_run_closed = False
        i = end + 1
    return doc


def _closing_fence(lines: list[str], start: int, fence: str) -> int | None:
    for j in range(start + 1, len(lines)):
        stripped = lines[j].strip()
        if stripped and stripped[0] == fence[0] and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
            return j
    return None


def _dedent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip()


def _run_block(doc, info, run_match, i, end, indent, fence, language, body) -> RunBlock:
    run = RunBlock(i + 1, end + 1, indent, fence, language, run_match["name"], body=body)
    try:
        options = shlex.split(info[run_match.end() :])
    except ValueError as exc:
        doc.problems.append(Problem(doc.path, i + 1, f"cannot read run options: {exc}"))
        options = []
    for option in options:
        key, _, value = option.partition("=")
        if key == "timeout" and value:
            try:
                run.timeout = float(value)
            except ValueError:
                doc.problems.append(Problem(doc.path, i + 1, f"timeout must be a number of seconds, not {value!r}"))
        elif key == "live" and not value:
            run.live = True
        else:
            doc.problems.append(Problem(doc.path, i + 1, f"unknown run option {option!r} (known: timeout=SECONDS, live)"))
    if body.strip():
        doc.problems.append(
            Problem(doc.path, i + 1, "a run block must be empty: its code is included from the snippet file", run.snippet)
        )
    return run


def _scan_prose(doc: Document, line: str, line_no: int, last_run: RunBlock | None) -> None:
    visible = _CODE_SPAN.sub(lambda m: " " * len(m.group()), line)  # ties inside `code` are text
    for math in _INLINE_MATH.finditer(visible):
        if "{{" in math.group():
            doc.problems.append(Problem(doc.path, line_no, "a tie inside math does not render: write the number in prose"))
            return
    for match in _TIE.finditer(visible):
        tie = Tie(line_no, match.start(), match.end(), match["doc"], match["op"], match["ref"])
        if tie.op == "=":
            ref = _REF.match(tie.ref.replace(" ", ""))
            if not ref:
                doc.problems.append(Problem(doc.path, line_no, f"cannot read the reference {tie.ref!r}: use NAME, NAME[i, j] or SNIPPET:NAME"))
                continue
            tie.expr = ref["expr"]
            if ref["snippet"]:
                tie.snippet = ref["snippet"] if ref["snippet"].endswith(".py") else ref["snippet"] + ".py"
            elif last_run is not None:
                tie.snippet = last_run.snippet
            else:
                doc.problems.append(Problem(doc.path, line_no, f"{{{{ {tie.documented} = {tie.ref} }}}} has no run block above it: name the snippet as SNIPPET:{tie.ref}"))
                continue
        doc.ties.append(tie)
    for match in _IMAGE.finditer(visible):
        doc.figures.append(Figure(line_no, match["alt"].strip(), match["src"]))
    if "{{" in visible and not _TIE.search(visible):
        doc.problems.append(Problem(doc.path, line_no, "'{{' opens no tie: write {{ NUMBER = NAME }} or {{ NUMBER @ SOURCE }}"))
