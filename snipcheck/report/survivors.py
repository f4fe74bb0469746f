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
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

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


def raw_ties(doc: Document, html: str) -> list[Problem]:
    """A problem for each tie of ``html`` a reader sees as written, at the source line holding it."""
    found = visible_ties(html)
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
