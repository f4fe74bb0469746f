"""The claims ledger: what each page asserts, and what backs each assertion.

Every page ``docs/PAGE.md`` has a ledger ``claims/PAGE.toml`` next to it, a list of claims:

    [[claim]]
    says = "the score-and-mix costs less than an Elman layer exactly when the sequence is shorter"
    checks = ["01_cost:mix_cheaper_exactly_below_d", "01_cost:crossover"]
    argument = "n^2 d < n d^2 exactly when n < d, shown as the ratio n / d"

``says`` quotes the page: the exact words, in one paragraph, with a tie written as the number it
documents, a link as its text, and without emphasis or code marks. Each claim names at least one
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
listed claim. It reads the Markdown itself (ties, run blocks, output blocks, fences) so that it
does not depend on the checker's internals.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ABSOLUTES = ("exactly", "always", "never", "only", "any", "every", "none", "nothing", "cannot", "whatever")
BACKINGS = ("checks", "outputs", "cite", "page", "argument", "code", "scope")
KEYS = {"says", *BACKINGS}

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_RUN = re.compile(r"""\brun=["']?(?P<name>[^"'\s]+)""")
_TIE = re.compile(r"\{\{\s*(?P<doc>.+?)\s+(?P<op>[=@~])\s+(?P<ref>.+?)\s*\}\}")
_LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\([^)]*\)")
_ATTRS = re.compile(r"\{\s*[#.][^}]*\}")
_HTML = re.compile(r"<[^>]+>")
_WORD = re.compile(r"(?<![\w-])(" + "|".join(ABSOLUTES) + r")(?![\w-])", re.IGNORECASE)  # "decoder-only" is a name


def normalise(text: str) -> str:
    """Prose as a reader sees it: ties as their number, links as their text, no marks, one space."""
    text = _TIE.sub(lambda m: m["doc"], text)
    text = _LINK.sub(lambda m: m["text"], text)
    text = _ATTRS.sub("", text)
    text = _HTML.sub("", text)
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"(?<![\w$\\])\*(?=\S)|(?<=\S)\*(?![\w$])", "", text)  # *emphasis*, not $a * b$
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
    """Paragraphs of prose (code, images and front matter left out), ties, and checked outputs."""
    page = Page(path)
    lines = text.splitlines()
    i, last_run, pending_run = 0, None, None
    if lines and lines[0].strip() == "---":
        i = next((j + 1 for j in range(1, len(lines)) if lines[j].strip() in ("---", "...")), 0)
    block: list[tuple[int, str]] = []

    def flush():
        if block:
            joined = " ".join(t for _, t in block)
            heading = re.match(r"\s*(#|===\s)", joined) is not None  # headings and tab labels
            page.paragraphs.append(Paragraph(block[0][0], normalise(joined), heading,
                                             [(n, normalise(t)) for n, t in block], joined))
            block.clear()

    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            flush()
            marker = fence["fence"]
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(marker[0] * len(marker))
                        and set(lines[j].strip()) == {marker[0]}), len(lines))
            info = fence["info"].strip()
            run = _RUN.search(info)
            if run:
                last_run = pending_run = run["name"].removesuffix(".py")
            elif info.split()[:1] == ["output"] and pending_run:
                body = [re.sub(r"\s+", " ", b).strip() for b in lines[i + 1 : end]]
                page.outputs.setdefault(pending_run, []).extend(b for b in body if b)
                pending_run = None
            else:
                pending_run = None
            i = end + 1
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("<!--"):
            flush()
            i += 1
            continue
        if stripped.startswith("#") or re.match(r"^(\?\?\?\+?|!!!|===)\s", stripped):
            flush()
            block.append((i + 1, stripped))
            flush()
        elif stripped.startswith("![") or stripped.startswith("|"):
            flush()
            if stripped.startswith("|"):
                block.append((i + 1, stripped))
                flush()
        else:
            if re.match(r"^([-*] |\d+\. )", stripped):  # a list item is a paragraph of its own
                flush()
            block.append((i + 1, stripped))
        for match in _TIE.finditer(line):
            ref = match["ref"].replace(" ", "") if match["op"] != "@" else match["ref"]
            snippet, _, expr = ref.rpartition(":") if match["op"] != "@" else ("", "", ref)
            snippet = snippet.removesuffix(".py") or (last_run if match["op"] != "@" else None)
            page.ties.append(Tie(i + 1, match["doc"], match["op"], snippet, expr))
        i += 1
    flush()
    return page


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
            problems.append(f"{page_path}: {where} does not stand on the page (quote one paragraph, ties as their number)")
        for k, paragraph in found:
            start = paragraph.text.find(says)
            while start != -1:
                covered.setdefault(k, []).append((start, start + len(says)))
                start = paragraph.text.find(says, start + 1)
            cite = str(claim.get("cite", ""))
            if cite and cite not in paragraph.text:
                problems.append(f"{page_path}:{paragraph.line}: {where} cites {cite!r}, which its paragraph does not name")
            other = str(claim.get("page", ""))
            if other and not re.search(rf"\]\({re.escape(other)}(#[^)]*)?\)", paragraph.raw):
                problems.append(f"{page_path}:{paragraph.line}: {where} is backed by page {other!r}, "
                                "which its paragraph does not link to")
        for check in claim.get("checks", []):
            snippet, _, expr = check.replace(" ", "").partition(":")
            if not expr or not any(t.op in "=~" and t.snippet == snippet.removesuffix(".py") and t.expr.replace(" ", "") == expr
                                   for t in page.ties):
                problems.append(f"{page_path}: {where} is backed by {check!r}, which the page does not tie "
                                "(write SNIPPET:EXPR as the tie resolves)")
        for output in claim.get("outputs", []):
            snippet, _, line = output.partition(":")
            line = re.sub(r"\s+", " ", line).strip()
            if not any(line and line in o for o in page.outputs.get(snippet.strip().removesuffix(".py"), [])):
                problems.append(f"{page_path}: {where} is backed by output {output!r}, which no checked output block "
                                "of that snippet on the page contains")
        other = str(claim.get("page", ""))
        if other and not (root / "docs" / other).is_file():
            problems.append(f"{page_path}: {where} is backed by page {other!r}, which does not exist")
        code = str(claim.get("code", ""))
        if code:
            file, _, name = code.partition(":")
            source = root / file
            if not source.is_file() or (name and not re.search(rf"^\s*(def|class)\s+{re.escape(name)}\b",
                                                               source.read_text(encoding="utf-8"), re.M)):
                problems.append(f"{page_path}: {where} is about code {code!r}, which does not exist")
    for k, paragraph in enumerate(page.paragraphs):
        if paragraph.heading:
            continue
        for match in _WORD.finditer(paragraph.text):
            if not any(a <= match.start() and match.end() <= b for a, b in covered.get(k, [])):
                problems.append(f"{page_path}:{paragraph.line_of(match.start())}: {match[0]!r} in "
                                f"{_sentence(paragraph.text, match.start())!r} "
                                "is in no listed claim")
    return problems
