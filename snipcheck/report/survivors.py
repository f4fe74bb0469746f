"""The last line of defence for ties: every ``{{ ... }}`` a reader would see as written on a
rendered page, traced back to the source line that holds it.

The page reader (``read/page.py``) decides what is prose the way Python-Markdown and
pymdownx.superfences do; where the two still disagree (a construct the reader takes for code, a
comment or raw HTML that Markdown renders as prose), the tie comes out of Markdown as raw braces.
This reads the page's HTML as a reader sees it: its text and the attributes a browser shows
(``alt``, ``title``, ``aria-label``, ``placeholder``), character references decoded, scripts and
styles skipped. Text inside ``<code>`` and ``<pre>`` is code, shown as written on purpose (a tie
the reader took for prose but Markdown made code is caught by its missing number instead).
A tie is ``{{``, text holding one of the operators ``=``, ``@`` or ``~``, then ``}}``.

Reading a page's HTML is most of the time this takes, so ``Scans`` keeps what each page's HTML
showed, in a folder, keyed by that HTML, the source of this module and Python's version (its
``html.parser`` reads the HTML): an unchanged page is not read again, and gives the same ties, so
the same problems, as when it was read.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Callable
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from ..kept import write_whole
from ..problems import Problem, ProblemKind
from ..read.page import Document

SHOWN_ATTRS = ("alt", "title", "aria-label", "placeholder")
_HIDDEN = {"script", "style", "template"}
_CODE = {"code", "pre", "kbd", "samp"}
# Elements that end a run of text: a tie is read within one block, never across two.
_BLOCKS = {
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
}
_TIE = re.compile(r"\{\{(?P<inner>[^{}\x00]{1,400}?)\}\}")
_OPERATOR = re.compile(r"[=@~]")


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.hidden = self.code = 0

    def handle_starttag(self, tag, attrs) -> None:
        tag = tag.lower()
        self.hidden += tag in _HIDDEN
        self.code += tag in _CODE
        if tag in _BLOCKS:
            self.chunks.append("\x00")
        for key, value in attrs:
            if value and "{{" in value and key.lower() in SHOWN_ATTRS:
                self.chunks += ["\x00", value, "\x00"]

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag) -> None:
        tag = tag.lower()
        self.hidden = max(0, self.hidden - (tag in _HIDDEN))
        self.code = max(0, self.code - (tag in _CODE))
        if tag in _BLOCKS:
            self.chunks.append("\x00")

    def handle_data(self, data) -> None:
        if not self.hidden and not self.code:
            self.chunks.append(data)


def _ties(text: str) -> list[str]:
    return [" ".join(m["inner"].split()) for m in _TIE.finditer(text) if _OPERATOR.search(m["inner"])]


def visible_ties(html: str) -> list[str]:
    """The inside of every tie a reader of ``html`` sees as written, outside code, in page order."""
    if "{" not in html and "&#" not in html:
        return []
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return _ties("".join(parser.chunks))


class Scans:
    """``visible_ties``, each page's answer kept in ``folder`` (one file per HTML read)."""

    FORMAT = 1  # the layout of an entry; a new layout misses every old entry

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()  # the keys looked up since the last eviction
        source = Path(__file__).read_bytes()
        self._fingerprint = hashlib.sha256(source + f"\0{sys.version}\0{self.FORMAT}".encode()).hexdigest()

    def key(self, html: str) -> str:
        return hashlib.sha256(f"{self._fingerprint}\0{html}".encode("utf-8", "surrogatepass")).hexdigest()

    def visible_ties(self, html: str) -> list[str]:
        key = self.key(html)
        self.used.add(key)
        path = self.folder / f"{key}.json"
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(kept, list) and all(isinstance(inner, str) for inner in kept):
                return kept
        except (OSError, ValueError):
            pass
        found = visible_ties(html)
        write_whole(path, json.dumps(found))
        return found

    def evict_unused(self) -> None:
        """Delete every entry not looked up since the last eviction (call after a build that read
        every page), and start counting again."""
        try:
            for path in self.folder.glob("*.json"):
                if path.stem not in self.used:
                    path.unlink(missing_ok=True)
        except OSError:
            pass
        self.used = set()


def raw_ties(doc: Document, html: str, scan: Callable[[str], list[str]] = visible_ties) -> list[Problem]:
    """A problem for each tie of ``html`` a reader sees as written, at the source line holding it
    (``scan``: ``visible_ties`` or a ``Scans``' one)."""
    found = scan(html)
    if not found:
        return []
    lines = doc.text.split("\n")
    where = [
        (number, inner) for number, line in enumerate(lines, 1) if "{" in line or "&" in line for inner in _ties(unescape(line))
    ]  # ``&#123;&#123;`` is ``{{`` on the page
    problems = []
    for inner in found:
        line = next((number for number, written in where if written == inner), 1)
        if (line, inner) in where:
            where.remove((line, inner))
        problems.append(
            Problem(
                ProblemKind.PLACEMENT,
                doc.path,
                line,
                f"a tie shows on the page as written, unchecked: {{{{ {inner} }}}} (Markdown renders it as "
                "text where the checker read no tie: is it after escaped backticks, in a line that "
                "only looks like a code fence, or in raw HTML?)",
            )
        )
    return problems
