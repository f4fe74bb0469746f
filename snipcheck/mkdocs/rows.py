"""The verification page's row tables, set aside from Markdown and put back after it.

The row blocks are HTML already, which Markdown would only parse and write out unchanged (most
of the time it spends on the page): each is set aside behind a placeholder before Markdown runs
(``set_aside``) and put back, as written, after it (``put_back``), with the anchors it holds
added to those the builder checks links against.

Reading the anchors out of the blocks is then most of what the page costs, and only the blocks of
pages whose numbers changed are new in a build (a page's live timings, say). So, given a folder,
the anchors of each block are kept there (``ANCHORS``), keyed by the block's text, the source of
this module and Python's version (its ``html.parser`` reads them): a block is read again when any
of them changed, and the file keeps only the blocks of the last page put back. Each block is a
whole element (a ``<details>``), so its anchors are the same read alone as read with the rest."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sys
from html.parser import HTMLParser
from pathlib import Path

from ..kept import write_whole

_ROW_BLOCK = re.compile(r'^<details class="snipcheck-rows">\n.*?^</details>$', re.MULTILINE | re.DOTALL)
ANCHORS = "rows.json"  # in the folder given: block key -> its anchors
_FINGERPRINT = hashlib.sha256(Path(__file__).read_bytes() + f"\0{sys.version}".encode()).hexdigest()


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
    def __init__(self, folder: Path | None = None) -> None:
        self._rows: list[str] = []
        self._pattern: re.Pattern | None = None
        self.folder = folder  # where the anchors of each block are kept (None: read every time)

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
        return html, self._anchors()

    def _anchors(self) -> set[str]:
        """The anchors of every block set aside, each block read unless its anchors are kept."""
        path = self.folder / ANCHORS if self.folder is not None else None
        kept = _read(path) if path is not None else {}
        now = {}
        for block in self._rows:
            key = hashlib.sha256(f"{_FINGERPRINT}\0{block}".encode("utf-8", "surrogatepass")).hexdigest()
            now[key] = kept[key] if key in kept else sorted(anchors(block))
        if path is not None and now != kept:
            write_whole(path, json.dumps(now))
        return {anchor for found in now.values() for anchor in found}


def _read(path: Path) -> dict[str, list[str]]:
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(kept, dict) or not all(isinstance(v, list) and all(isinstance(a, str) for a in v) for v in kept.values()):
        return {}
    return kept
