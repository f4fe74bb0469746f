"""The claims ledger: what each page asserts, and what backs each assertion.

Every page ``docs/PAGE.md`` has a ledger ``claims/PAGE.toml`` next to it, a list of claims:

    [[claim]]
    says = "the score-and-mix costs less than an Elman layer exactly when the sequence is shorter"
    checks = ["08_vs_recurrent:mix_cheaper_exactly_below_d", "08_vs_recurrent:crossover"]
    argument = "n^2 d < n d^2 exactly when n < d, shown as the ratio n / d"

``says`` quotes the page: the exact words, in one paragraph, with a tie written as the number it
documents, a link as its text, and without emphasis or code marks (keep the code marks of code
that would read as HTML, such as `<s>`: the quote is read as Markdown). Each claim names at least one
thing that backs it:

- ``checks``: ties on the same page, as ``SNIPPET:EXPR`` (a computed ``=`` tie, or a ``~``
  range tie on a measured value); the build checks them.
- ``outputs``: lines of a checked output block, as ``SNIPPET: the line``.
- ``cite``: a locator ("section 3.2.3", "Table 3", "Xiong et al. 2020") that must stand in the
  same paragraph as the claim, so the reader sees the source where the claim is made.
- ``page``: another page, ``PAGE.md``, that demonstrates the claim (with its own ledger); the
  claim's paragraph must link to it. For summaries: the home page, the interview questions.
- ``argument``: a derivation shown on the page (name it); ``code``: ``PATH:NAME``, a statement
  about the library's own code; ``scope``: a sentence that limits what the page claims.

``ledger_problems`` compares a page with its ledger: every quote must stand on the page, every
backing must exist, and every absolute word (``ABSOLUTES``) in the page's prose must lie inside a
listed claim. It parses the Markdown with markdown-it-py (ties, run blocks, output blocks,
fences, admonitions) and does not depend on the checker's internals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import tomllib
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

ABSOLUTES = ("exactly", "always", "never", "only", "any", "every", "none", "nothing", "cannot", "whatever")
BACKINGS = ("checks", "outputs", "cite", "page", "argument", "code", "scope")
KEYS = {"says", *BACKINGS}

_TIE = re.compile(r"\{\{\s*(?P<doc>.+?)\s+(?P<op>[=@~])\s+(?P<ref>.+?)\s*\}\}")
_RUN = re.compile(r"""\brun=["']?(?P<name>[^"'\s]+)""")
_ATTRS = re.compile(r"\{\s*[#.][^}]*\}")  # an attribute list, { #id .class }, left as text by the parser
_TAB = re.compile(r'^(?P<indent>[ \t]*)===(?P<rest>\s+".*)$', re.MULTILINE)
_WORD = re.compile(r"(?<![\w-])(" + "|".join(ABSOLUTES) + r")(?![\w-])", re.IGNORECASE)  # "decoder-only" is a name


def _parser() -> MarkdownIt:
    """CommonMark with what the site's pages use: tables, front matter, $math$, admonitions (!!!, ???)."""
    return (
        MarkdownIt("commonmark")
        .enable("table")
        .use(front_matter_plugin)
        .use(dollarmath_plugin, allow_space=True, allow_digits=True, double_inline=True)
        .use(admon_plugin)
    )


def _inline_text(children: list[Token]) -> list[str]:
    """An inline token's children as the reader sees them, one string per source line.

    Text and code as written, a link or image as its text, math between its dollars, no emphasis
    marks and no inline HTML.
    """
    lines, current = [], []
    for child in children:
        if child.type in ("softbreak", "hardbreak"):
            lines.append("".join(current))
            current = []
            continue
        if child.type in ("text", "code_inline"):
            piece = child.content
        elif child.type == "image":
            piece = "\n".join(_inline_text(child.children or []))
        elif child.type == "math_inline":
            piece = f"${child.content}$"
        elif child.type == "math_inline_double":
            piece = f"$${child.content}$$"
        else:
            continue
        *ended, rest = piece.split("\n")  # a formula may run over several source lines
        for part in ended:
            lines.append("".join(current) + part)
            current = []
        current.append(rest)
    lines.append("".join(current))
    return lines


def normalise(text: str) -> str:
    """Prose as a reader sees it: ties as their number, links as their text, no marks, one space."""
    tokens = _parser().parseInline(text)
    return _clean(" ".join(_inline_text(tokens[0].children or []))) if tokens else ""


def _clean(text: str) -> str:
    """Rendered inline text -> ties as their documented number, no attribute lists, one space."""
    text = _TIE.sub(lambda m: m["doc"], text)
    text = _ATTRS.sub("", text)
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Paragraph:
    line: int  # first line, 1-based
    text: str  # normalised
    heading: bool = False
    lines: list[tuple[int, str]] = field(default_factory=list)  # (line number, that line normalised)
    raw: str = ""  # the paragraph's Markdown, for its links

    def line_of(self, at: int) -> int:
        """The source line of the character at ``at`` in ``text`` (by counting words up to it)."""
        target = len(self.text[:at].split())
        seen = 0
        for number, line in self.lines:
            seen += len(line.split())
            if seen > target:
                return number
        return self.lines[-1][0] if self.lines else self.line


@dataclass
class Tie:
    line: int
    documented: str
    op: str
    snippet: str | None  # without .py
    expr: str


@dataclass
class Page:
    path: str
    paragraphs: list[Paragraph] = field(default_factory=list)
    ties: list[Tie] = field(default_factory=list)
    outputs: dict[str, list[str]] = field(default_factory=dict)  # snippet -> normalised output lines


def read_page(text: str, path: str) -> Page:
    """Paragraphs of prose (code, math blocks, HTML and front matter left out), ties, and checked outputs.

    The page is parsed as CommonMark (markdown-it-py) with the syntax the site uses. Material's
    content tabs (=== "Title") have the layout of an admonition, a marker line and a body indented
    by four spaces, and are read as one. A heading, an admonition's or tab's title and a table row
    are each a paragraph of their own, marked ``heading`` (except table rows); so is a list item.
    """
    page = Page(path)
    source = text.splitlines()
    tokens = _parser().parse(_TAB.sub(lambda m: f"{m['indent']}!!! tab{m['rest']}", text))
    last_run: str | None = None
    pending_run: str | None = None
    for index, token in enumerate(tokens):
        if token.type == "fence":
            run = _RUN.search(token.info)
            if run:
                last_run = pending_run = run["name"].removesuffix(".py")
            elif token.info.split()[:1] == ["output"] and pending_run:
                body = [re.sub(r"\s+", " ", b).strip() for b in token.content.splitlines()]
                page.outputs.setdefault(pending_run, []).extend(b for b in body if b)
                pending_run = None
            else:
                pending_run = None
        elif token.type == "admonition_open" and token.map:
            first = token.map[0]
            _add(page, first + 1, [source[first].strip()], source[first].strip(), True, last_run)
        elif token.type == "inline" and token.map:
            parent = tokens[index - 1].type
            first, stop = token.map
            raw = " ".join(line.strip() for line in source[first:stop])
            children = token.children or []
            if parent in ("th_open", "td_open", "admonition_title_open"):
                continue  # read whole: a table row at its tr_open, a title at its admonition_open
            if children and children[0].type == "image":
                continue  # a figure: its alternative text is not prose
            if parent == "heading_open":
                _add(page, first + 1, [raw], raw, True, last_run)
            else:
                _add(page, first + 1, _inline_text(children), raw, False, last_run)
        elif token.type == "tr_open" and token.map:
            row = source[token.map[0]].strip()
            _add(page, token.map[0] + 1, [row], row, False, last_run)
    return page


def _add(page: Page, first: int, lines: list[str], raw: str, whole: bool, last_run: str | None) -> None:
    """One paragraph from its rendered lines (line ``first`` onwards), and the ties they hold.

    ``whole``: a heading or title, read from its one source line. Headings (and tab titles) are
    marked as such: their words are not checked for absolutes.
    """
    heading = re.match(r"\s*(#|===\s)", raw) is not None
    if whole or raw.startswith("|"):
        numbered = [(first, normalise(raw))]
    else:
        numbered = [(first + k, _clean(line)) for k, line in enumerate(lines)]
    text = re.sub(r"\s+", " ", " ".join(line for _, line in numbered)).strip()
    page.paragraphs.append(Paragraph(first, text, heading, numbered, raw))
    for number, line in [(first + k, line) for k, line in enumerate(lines)]:
        for match in _TIE.finditer(line):
            ref = match["ref"].replace(" ", "") if match["op"] != "@" else match["ref"]
            snippet, _, expr = ref.rpartition(":") if match["op"] != "@" else ("", "", ref)
            tie_snippet = snippet.removesuffix(".py") or (last_run if match["op"] != "@" else None)
            page.ties.append(Tie(number, match["doc"], match["op"], tie_snippet, expr))


def read_ledger(path: Path) -> list[dict]:
    """The [[claim]] entries of a ledger file (a TOML syntax error raises, naming the file)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    unknown = set(data) - {"claim"}
    if unknown:
        raise ValueError(f"{path}: unknown top-level keys {sorted(unknown)} (only [[claim]] tables)")
    return data.get("claim", [])


def _sentence(text: str, at: int) -> str:
    start = max(text.rfind(". ", 0, at), text.rfind("? ", 0, at), text.rfind(": ", 0, at))
    end = min((e for e in (text.find(". ", at), text.find("? ", at)) if e != -1), default=len(text))
    return text[start + 2 if start >= 0 else 0 : end + 1]


def ledger_problems(page_text: str, page_path: str, claims: list[dict], root: Path) -> list[str]:
    """Every way the page and its ledger disagree, as 'PAGE:LINE: message' (or 'LEDGER: ...')."""
    page = read_page(page_text, page_path)
    problems: list[str] = []
    covered: dict[int, list[tuple[int, int]]] = {}  # paragraph index -> claim spans
    seen: set[str] = set()
    for number, claim in enumerate(claims, 1):
        where = f"claim {number}"
        unknown = set(claim) - KEYS
        if unknown:
            problems.append(f"{page_path}: {where}: unknown keys {sorted(unknown)} (known: {sorted(KEYS)})")
        says = normalise(str(claim.get("says", "")))
        if not says:
            problems.append(f"{page_path}: {where} quotes nothing ('says' is empty)")
            continue
        where = f"claim {number} ({says[:60]!r})"
        if says in seen:
            problems.append(f"{page_path}: {where} is listed twice")
        seen.add(says)
        if not any(claim.get(key) for key in BACKINGS):
            problems.append(f"{page_path}: {where} names nothing that backs it (one of {', '.join(BACKINGS)})")
        found = [(k, p) for k, p in enumerate(page.paragraphs) if says in p.text]
        if not found:
            problems.append(
                f"{page_path}: {where} does not stand on the page (quote one paragraph, ties as their number)"
            )
        for k, paragraph in found:
            start = paragraph.text.find(says)
            while start != -1:
                covered.setdefault(k, []).append((start, start + len(says)))
                start = paragraph.text.find(says, start + 1)
            cite = str(claim.get("cite", ""))
            if cite and cite not in paragraph.text:
                problems.append(
                    f"{page_path}:{paragraph.line}: {where} cites {cite!r}, which its paragraph does not name"
                )
            other = str(claim.get("page", ""))
            if other and not re.search(rf"\]\({re.escape(other)}(#[^)]*)?\)", paragraph.raw):
                problems.append(
                    f"{page_path}:{paragraph.line}: {where} is backed by page {other!r}, "
                    "which its paragraph does not link to"
                )
        for check in claim.get("checks", []):
            snippet, _, expr = check.replace(" ", "").partition(":")
            if not expr or not any(
                t.op in "=~" and t.snippet == snippet.removesuffix(".py") and t.expr.replace(" ", "") == expr
                for t in page.ties
            ):
                problems.append(
                    f"{page_path}: {where} is backed by {check!r}, which the page does not tie "
                    "(write SNIPPET:EXPR as the tie resolves)"
                )
        for output in claim.get("outputs", []):
            snippet, _, line = output.partition(":")
            line = re.sub(r"\s+", " ", line).strip()
            if not any(line and line in o for o in page.outputs.get(snippet.strip().removesuffix(".py"), [])):
                problems.append(
                    f"{page_path}: {where} is backed by output {output!r}, which no checked output block "
                    "of that snippet on the page contains"
                )
        other = str(claim.get("page", ""))
        if other and not (root / "docs" / other).is_file():
            problems.append(f"{page_path}: {where} is backed by page {other!r}, which does not exist")
        code = str(claim.get("code", ""))
        if code:
            file, _, name = code.partition(":")
            source = root / file
            if not source.is_file() or (
                name
                and not re.search(rf"^\s*(def|class)\s+{re.escape(name)}\b", source.read_text(encoding="utf-8"), re.M)
            ):
                problems.append(f"{page_path}: {where} is about code {code!r}, which does not exist")
    for k, paragraph in enumerate(page.paragraphs):
        if paragraph.heading:
            continue
        for match in _WORD.finditer(paragraph.text):
            if not any(a <= match.start() and match.end() <= b for a, b in covered.get(k, [])):
                problems.append(
                    f"{page_path}:{paragraph.line_of(match.start())}: {match[0]!r} in "
                    f"{_sentence(paragraph.text, match.start())!r} "
                    "is in no listed claim"
                )
    return problems
