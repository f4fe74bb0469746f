"""How hard each page is to read: the counts a reader pays for, per page, from the Markdown sources.

    python scripts/reading.py [PAGE.md ...]     (default: every page in docs/)

Prints one row per page, then a line naming every page that misses a target:

- **words**: words of prose. Prose is the text a reader reads as sentences: paragraphs, list
  items, admonition and fold bodies (folded prose is still prose), footnotes. Not prose: front
  matter, fenced code and output blocks, display math (``$$ ... $$``), table rows, headings,
  admonition titles (the quoted text after ``!!!``/``???``), ``<summary>`` lines, HTML tags,
  images, and a section headed "References" (a list of sources, up to the next heading). A word
  is a whitespace-separated token holding a letter or digit, after a link is replaced by its
  text, a tie by its number and an inline formula (``$...$``) by one token: a formula reads as
  one term.
- **ties/100w**: ties (``{{ DOC = NAME }}``, ``{{ DOC @ SOURCE }}``, ``{{ LOW..HIGH ~ NAME }}``)
  outside code, in prose and tables alike, per 100 words of prose.
- **bool ties**: ties outside code whose documented value holds ``True``, ``False``, ``nan`` or
  ``inf``.
- **longest block**: the longest code block shown unfolded, in non-blank lines. A run block
  counts its snippet file's non-blank lines (the page shows the whole file), or with ``cell=``
  those of that cell (the page shows the one cell); an output block
  counts its own. A block inside a ``???`` fold (``???+`` opens by default, so it is shown) or a
  ``<details>`` element without ``open`` is folded; tabs (``===``) and ``!!!`` admonitions show
  their content.
- **mean sentence**: words of prose divided by sentences. A sentence ends at ``.``, ``!`` or ``?``
  followed by white space (closing quotes and brackets may come between), and at the end of a
  paragraph or list item. An exercise's number (``**1.``) is a word but no sentence; ``et al.``,
  ``e.g.``, ``i.e.``, ``cf.`` and ``vs.`` end no sentence. A display formula does not end the
  sentence around it: prose after it that starts in lower case continues the paragraph before
  it. Colons and semicolons end no sentence.
- **figures**: images (``![alt](src)``) outside code (blocks and spans), folded or not.

Targets: no boolean tie, at most 3 ties per 100 words, no unfolded block over 30 lines, a mean
sentence of at most 25 words, and at least one figure on every section page (``NN-*.md``).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from snipcheck.read.cells import cell_code
from snipcheck.read.ties import DOLLAR_MATH, HTML_TAG, TieText, replace_ties

ROOT = Path(__file__).resolve().parent.parent

MAX_TIES_PER_100 = 3.0
MAX_BLOCK = 30
MAX_SENTENCE = 25.0

_FRONT = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*\n", re.DOTALL)
_FENCE = re.compile(r"^(?P<indent>[ ]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*?)[ \t]*$")
_RUN = re.compile(r"""(?:^|\s)run=(?P<q>["']?)(?P<name>[^"'\s]*)(?P=q)""")
_CELL = re.compile(r"""(?:^|\s)cell=(?P<q>["']?)(?P<name>[^"'\s]*)(?P=q)""")
_OPENER = re.compile(r"^(?P<indent>[ ]*)(?P<mark>!!!|\?\?\?\+?|===\+?)(?:[ ]|$)")
_LIST = re.compile(r"^(?P<indent>[ ]*)(?:[-*+]|\d{1,9}[.)])(?:[ ]+|$)")
_HEADING = re.compile(r"^[ ]*#{1,6}(?:[ ]|$)")
_REFERENCES = re.compile(r"^#{1,6}[ ]+(?:References|Bibliography)[ ]*#*$", re.IGNORECASE)
_BOOLEAN = re.compile(r"(?<![\w.])(?:True|False|nan|inf)(?![\w])")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_CODE_SPAN = re.compile(r"(`+).+?\1")
_LINK = re.compile(r"\[(?P<text>[^\]]*)\]\([^)]*\)")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]]+\](?::)?")
_ATTRS = re.compile(r"\{\s*[#.:][^}]*\}")
_SUMMARY = re.compile(r"<summary\b.*?</summary>", re.IGNORECASE | re.DOTALL)
_DETAILS_OPEN = re.compile(r"<details\b(?P<attrs>[^>]*)>", re.IGNORECASE)
_DETAILS_CLOSE = re.compile(r"</details\s*>", re.IGNORECASE)
_ABBREVIATIONS = re.compile(r"\b(et al|e\.g|i\.e|cf|vs)\.", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]*_]*\s+")
_NUMBERING = re.compile(r"[*_]*\d{1,3}")  # "**1. Make C longer.**": an exercise's number, not a sentence
_WORD = re.compile(r"\S*[A-Za-z0-9]\S*")
_MATH = object()  # a display formula between two paragraphs


@dataclass
class Block:
    """A code or output block as the page shows it."""

    line: int
    lines: int
    folded: bool
    label: str


@dataclass
class Reading:
    """The counts of one page."""

    words: int = 0
    sentences: int = 0
    ties: int = 0
    boolean_ties: int = 0
    figures: int = 0
    blocks: list[Block] = field(default_factory=list)

    @property
    def ties_per_100(self) -> float:
        return 100 * self.ties / self.words if self.words else 0.0

    @property
    def mean_sentence(self) -> float:
        return self.words / self.sentences if self.sentences else 0.0

    @property
    def longest(self) -> Block | None:
        """The longest unfolded block, the first of equals."""
        shown = [b for b in self.blocks if not b.folded]
        return max(shown, key=lambda b: b.lines) if shown else None

    def misses(self, section: bool) -> list[str]:
        """The targets this page misses, each as a short phrase."""
        out = []
        if self.boolean_ties:
            out.append(f"{self.boolean_ties} boolean ties")
        if self.ties_per_100 > MAX_TIES_PER_100:
            out.append(f"{self.ties_per_100:.1f} ties/100 words")
        if self.longest is not None and self.longest.lines > MAX_BLOCK:
            out.append(f"a {self.longest.lines}-line block")
        if self.mean_sentence > MAX_SENTENCE:
            out.append(f"mean sentence {self.mean_sentence:.1f}")
        if section and not self.figures:
            out.append("no figure")
        return out


def snippet_lines(name: str, folder: Path = ROOT / "snippets", cell: str | None = None) -> int | None:
    """Non-blank lines of ``folder/name`` (of its cell ``cell`` only, as a page shows one cell), or
    None if there is no such file or cell."""
    try:
        text = (folder / name).read_text(encoding="utf-8")
    except OSError:
        return None
    if cell is not None:
        text = cell_code(text, cell)
        if text is None:
            return None
    return sum(1 for line in text.splitlines() if line.strip())


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _clean(text: str) -> tuple[str, int, int]:
    """Prose text as read: (text with ties, links, formulas replaced; ties; boolean ties)."""
    ties = booleans = 0

    def tie(t: TieText) -> str:
        nonlocal ties, booleans
        ties += 1
        booleans += bool(_BOOLEAN.search(t.documented))
        return "0"  # one word, whatever the number's form

    text = replace_ties(text, tie)
    text = _IMAGE.sub(" ", text)
    text = _FOOTNOTE_REF.sub("", text)
    text = _LINK.sub(lambda m: m["text"], text)
    text = DOLLAR_MATH.sub("x", text)
    text = _ATTRS.sub("", text)
    text = _SUMMARY.sub(" ", text)
    text = HTML_TAG.sub(" ", text)
    text = text.replace("**", "").replace("`", "")
    return text, ties, booleans


def _sentences(paragraph: str) -> int:
    """Sentences in one paragraph of cleaned prose (at least one, if it holds a word)."""
    if not _WORD.search(paragraph):
        return 0
    text = _ABBREVIATIONS.sub(lambda m: m[1].replace(".", ""), paragraph.strip())
    parts = [p for p in _SENTENCE_END.split(text + " ") if _WORD.search(p) and not _NUMBERING.fullmatch(p.strip())]
    return max(1, len(parts))


def read(markdown: str, lines_of=snippet_lines) -> Reading:
    """The counts of one page's Markdown; ``lines_of(name)`` gives a run block's snippet length."""
    r = Reading()
    front = _FRONT.match(markdown)
    offset = markdown.count("\n", 0, front.end()) if front else 0
    lines = markdown[front.end() if front else 0 :].splitlines()
    containers: list[tuple[int, bool]] = []  # (body indent, folded) of each open admonition
    details: list[bool] = []  # folded, for each open <details>
    blocks: list = []  # paragraphs (lists of lines) and _MATH marks
    paragraph: list[str] = []
    references = False

    def flush() -> None:
        nonlocal paragraph
        if paragraph:
            blocks.append(paragraph)
        paragraph = []

    def folded() -> bool:
        return any(f for _, f in containers) or any(details)

    i = 0
    while i < len(lines):
        line, number = lines[i], offset + i + 1
        stripped = line.strip()
        i += 1
        if not stripped:
            flush()
            continue
        while containers and _indent(line) < containers[-1][0]:
            containers.pop()
        fence = _FENCE.match(line)
        if fence:
            flush()
            mark, body = fence["fence"], []
            while i < len(lines):
                close = lines[i].strip()
                i += 1
                if close.startswith(mark[0] * len(mark)) and not close.strip(mark[0]):
                    break
                body.append(lines[i - 1])
            run, cell = _RUN.search(fence["info"]), _CELL.search(fence["info"])
            if run:
                count = lines_of(run["name"], cell=cell["name"]) if cell else lines_of(run["name"])
                label = run["name"] + (f" ({cell['name']})" if cell else "")
                label = label if count is not None else f"{label} (missing)"
                count = count or 0
            else:
                count = sum(1 for b in body if b.strip())
                label = f"{fence['info'].split()[0] if fence['info'] else 'code'} block, line {number}"
            r.blocks.append(Block(number, count, folded(), label))
            continue
        if stripped.startswith("$$"):
            flush()
            rest = stripped[2:]
            while not rest.rstrip().endswith("$$") and i < len(lines):
                rest = lines[i].strip()
                i += 1
            blocks.append(_MATH)
            continue
        opener = _OPENER.match(line)
        if opener:
            flush()
            containers.append((_indent(line) + 4, opener["mark"] == "???"))
            continue
        if _HEADING.match(line):
            references = bool(_REFERENCES.match(stripped))
        if references:  # a list of sources, not sentences: skipped up to the next heading
            flush()
            continue
        if _HEADING.match(line) or stripped.startswith("|"):
            flush()
            if stripped.startswith("|"):
                _, ties, booleans = _clean(stripped)
                r.ties += ties
                r.boolean_ties += booleans
            continue
        opened = _DETAILS_OPEN.search(stripped)
        if opened:
            flush()
            details.append(not re.search(r"\bopen\b", opened["attrs"], re.IGNORECASE))
        if _DETAILS_CLOSE.search(stripped):
            flush()
            if details:
                details.pop()
        r.figures += len(_IMAGE.findall(_CODE_SPAN.sub("", stripped)))
        if _LIST.match(line):
            flush()
            line = _LIST.sub("", line, count=1)
        paragraph.append(line.strip())
    flush()

    merged: list[str] = []
    after_math = False
    for block in blocks:
        if block is _MATH:
            after_math = True
            continue
        text = " ".join(block)
        if after_math and merged and text[:1].islower():
            merged[-1] += " " + text
        else:
            merged.append(text)
        after_math = False
    for text in merged:
        cleaned, ties, booleans = _clean(text)
        r.ties += ties
        r.boolean_ties += booleans
        r.words += len(_WORD.findall(cleaned))
        r.sentences += _sentences(cleaned)
    return r


def table(pages: list[Path]) -> str:
    """The report: one row per page, then the pages that miss a target."""
    rows = [
        "| page | words | ties/100w | bool ties | longest unfolded block | mean sentence | figures |",
        "| --- | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    misses = []
    for path in pages:
        r = read(path.read_text(encoding="utf-8"))
        longest = r.longest
        shown = f"{longest.lines} ({longest.label})" if longest else "–"
        rows.append(
            f"| {path.stem} | {r.words} | {r.ties_per_100:.1f} | {r.boolean_ties} | {shown} | "
            f"{r.mean_sentence:.1f} | {r.figures} |"
        )
        missed = r.misses(section=bool(re.match(r"\d\d-", path.name)))
        if missed:
            misses.append(f"{path.stem} ({', '.join(missed)})")
    rows.append("")
    rows.append("pages missing a target: " + "; ".join(misses) if misses else "every page meets the targets")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    pages = [Path(a) for a in argv] or sorted((ROOT / "docs").glob("*.md"))
    print(table(pages))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
