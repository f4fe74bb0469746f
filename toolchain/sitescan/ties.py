"""The tie guard for any builder's output: ``python -m sitescan ties SITE``.

On a page a number is written as a tie, ``{{ 0.248 = weights[2, 0] }}``, which the snipcheck
plugin (or ``python -m snipcheck render``) turns into the number linked to its check. A builder
that ran without it (a plugin dropped, another builder, a page it never saw) leaves the braces in
the HTML, and the reader sees them. This reads every HTML file of a built site and lists every
tie a reader would see, each with its ``file:line`` and the text around it, all in one run.

What a reader sees: the text of the page (code blocks and code spans included: a tie there shows
as raw braces too; character references decoded, so ``&#123;&#123;`` is ``{{``; a tie split by
inline markup read as one), and the attributes a browser shows (``alt``, ``title``,
``aria-label``, ``placeholder``, a ``<meta>``'s ``content`` a search result or a link preview
shows). Not seen, not read: scripts, styles, comments, and every other attribute. A tie is
``{{``, then text holding one of the operators ``=``, ``@`` or ``~``, then ``}}``: the braces of
code such as Python's ``f"{{name}}"`` are not one. Standard library only.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from .site import report, site_files

HTML_SUFFIXES = (".html", ".htm", ".xhtml")
SHOWN_ATTRS = ("alt", "title", "aria-label", "placeholder")
HIDDEN = {"script", "style", "template"}
# Elements that end a run of text: a tie is read within one block, never across two.
BLOCKS = {
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
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
    "head",
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
    "title",
    "tr",
    "ul",
}
_BREAK = "\x00"
TIE = re.compile(r"\{\{(?P<inner>[^{}\x00]{1,400}?)\}\}")
_OPERATOR = re.compile(r"[=@~]")


@dataclass(frozen=True)
class Survivor:
    path: str  # relative to the site folder
    line: int
    text: str  # the tie as the reader sees it
    where: str  # "text", or the attribute it stands in

    def __str__(self) -> str:
        place = "" if self.where == "text" else f" (in {self.where})"
        return f"{self.path}:{self.line}: a tie a reader sees as written{place}: {self.text}"


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.starts: list[int] = []  # offset in the text where each chunk starts
        self.lines: list[int] = []  # its line in the file
        self.size = 0
        self.hidden = 0
        self.attrs: list[tuple[int, str, str]] = []  # (line, attribute, value)

    def _add(self, data: str) -> None:
        self.starts.append(self.size)
        self.lines.append(self.getpos()[0])
        self.text.append(data)
        self.size += len(data)

    def handle_starttag(self, tag, attrs) -> None:
        tag = tag.lower()
        if tag in HIDDEN:
            self.hidden += 1
        if tag in BLOCKS:
            self._add(_BREAK)
        for key, value in attrs:
            key = key.lower()
            if value and "{{" in value and (key in SHOWN_ATTRS or (tag == "meta" and key == "content")):
                self.attrs.append((self.getpos()[0], f"{tag} {key}", value))

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag.lower() in HIDDEN:
            self.hidden -= 1

    def handle_endtag(self, tag) -> None:
        tag = tag.lower()
        if tag in HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        if tag in BLOCKS:
            self._add(_BREAK)

    def handle_data(self, data) -> None:
        if not self.hidden:
            self._add(data)


def _ties(text: str) -> list[re.Match]:
    return [m for m in TIE.finditer(text) if _OPERATOR.search(m["inner"])]


def _shown(text: str) -> str:
    return " ".join(text.split())


def surviving_ties(html: str, path: str = "") -> list[Survivor]:
    """Every tie a reader of ``html`` sees as written, in page order."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    text = "".join(parser.text)
    found = []
    for match in _ties(text):
        chunk = bisect.bisect_right(parser.starts, match.start()) - 1
        line = parser.lines[chunk] + text.count("\n", parser.starts[chunk], match.start())
        found.append(Survivor(path, line, _shown(match.group()), "text"))
    for line, where, value in parser.attrs:
        found += [Survivor(path, line, _shown(m.group()), where) for m in _ties(value)]
    return sorted(found, key=lambda s: s.line)


def scan(site: Path) -> tuple[list[Survivor], int]:
    """(every tie a reader sees as written in the built site ``site``, how many HTML files were read)."""
    found, files = [], 0
    for path, html in site_files(site, HTML_SUFFIXES):
        files += 1
        if "{" in html or "&#" in html:  # a tie needs braces, written or as character references
            found += surviving_ties(html, path.relative_to(site).as_posix())
    return found, files


def main(site: str) -> int:
    """Exit 0: no tie left; 1: each tie listed; 2: not a site folder."""
    return report(
        "ties",
        site,
        scan,
        "HTML",
        lambda n, files: (
            f"{n} tie(s) left as written in {files} HTML files: the builder did not "
            "run the snipcheck plugin on them (or build from `python -m snipcheck render`)"
        ),
        lambda files: f"{files} HTML files read, no tie left as written",
    )
