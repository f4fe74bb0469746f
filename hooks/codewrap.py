"""MkDocs hook: on a phone a code line wraps under itself instead of running off the screen.

A code block's lines are wider than a phone's screen, and what runs off it (a trailing shape
comment, most often) is what a reader scrolling sideways misses. docs/stylesheets/extra.css wraps
code lines on narrow screens, and indents what follows a break past the line's own indentation,
so that a wrapped line never reads as a dedent: pymdownx.highlight puts each line in a span
(``line_spans`` in mkdocs.yml), and this hook gives each span its line's indentation, in
characters, as ``--code-indent`` (an inline style: the content security policy allows them, and a
stylesheet cannot count leading spaces). Nothing changes on a wider screen.
"""

from __future__ import annotations

import html
import re

LINE = re.compile(r'<span id="(?P<id>__span-[0-9]+-[0-9]+)">(?P<line>[^\n]*)\n</span>')
TAG = re.compile(r"<[^>]*>")


def indentation(line_html: str) -> int:
    """The leading spaces of a highlighted line (its HTML: tags and entities as Pygments writes them)."""
    text = html.unescape(TAG.sub("", line_html))
    return len(text) - len(text.lstrip(" "))


def mark_indentation(page_html: str) -> str:
    """``page_html`` with each indented code line's span carrying ``--code-indent: Nch``."""

    def mark(match: re.Match) -> str:
        spaces = indentation(match.group("line"))
        if not spaces:
            return match.group(0)
        return f'<span id="{match.group("id")}" style="--code-indent: {spaces}ch">{match.group("line")}\n</span>'

    return LINE.sub(mark, page_html)


def on_page_content(html: str, page, config, files) -> str:
    return mark_indentation(html)
