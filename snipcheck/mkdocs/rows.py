"""The verification page's row tables, set aside from Markdown and put back after it.

The row blocks are HTML already, which Markdown would only parse and write out unchanged (most
of the time it spends on the page): each is set aside behind a placeholder before Markdown runs
(``set_aside``) and put back, as written, after it (``put_back``), with the anchors it holds
added to those the builder checks links against."""

from __future__ import annotations

import re
import secrets
from html.parser import HTMLParser

_ROW_BLOCK = re.compile(r'^<details class="snipcheck-rows">\n.*?^</details>$', re.MULTILINE | re.DOTALL)


class RowsLost(Exception):
    """Markdown lost a placeholder: the page would miss row tables."""


class _Anchors(HTMLParser):
    """The anchors of some HTML as MkDocs counts them: every ``id``, and ``name`` on ``<a>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        for key, value in attrs:
            if value is not None and (key == "id" or (key == "name" and tag == "a")):
                self.found.add(value)


def anchors(html: str) -> set[str]:
    parser = _Anchors()
    parser.feed(html)
    parser.close()
    return parser.found


class SetAsideRows:
    def __init__(self) -> None:
        self._rows: list[str] = []
        self._pattern: re.Pattern | None = None

    @property
    def pending(self) -> bool:
        """Rows set aside and not yet put back."""
        return self._pattern is not None

    def set_aside(self, body: str) -> str:
        self._rows = []
        token = secrets.token_hex(8)

        def set_aside(match: re.Match) -> str:
            self._rows.append(match.group(0))
            return f"<!-- snipcheck-rows {token} {len(self._rows) - 1} -->"

        self._pattern = re.compile(rf"<!-- snipcheck-rows {token} (\d+) -->")
        return _ROW_BLOCK.sub(set_aside, body)

    def put_back(self, html: str) -> tuple[str, set[str]]:
        """The HTML with every row table back in place, and the anchors the rows hold."""
        found = []

        def put_back(match: re.Match) -> str:
            found.append(int(match.group(1)))
            return self._rows[int(match.group(1))]

        html, self._pattern = self._pattern.sub(put_back, html), None
        if sorted(found) != list(range(len(self._rows))):
            raise RowsLost(f"snipcheck: the verification page lost row tables in Markdown: put back {sorted(found)} of {len(self._rows)}")
        return html, anchors("".join(self._rows))
