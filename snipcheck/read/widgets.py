"""Reading a widget from a raw HTML block: the ``<div class="widget">`` that names its script
(``data-widget``) and its data file (``data-src``), and holds its text alternative.

    <div class="widget" data-widget="temperature" data-src="figures/04_widget/temperature.json">
    What the widget shows, in words: read by a screen reader, and shown when scripts do not run.
    </div>
"""

from __future__ import annotations

import html
import re

from .regions import Widget

_OPEN = re.compile(r"<div\b(?P<attrs>[^>]*)>", re.IGNORECASE)
_CLASS = re.compile(r"""\bclass\s*=\s*["'](?P<names>[^"']*)["']""", re.IGNORECASE)
_ATTR = re.compile(r"""\b(?P<key>data-widget|data-src)\s*=\s*["'](?P<value>[^"']*)["']""", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")


def read_widget(block: str, line: int, end_line: int) -> tuple[Widget | None, str | None]:
    """The widget a raw HTML block opens with, if it does (else None), and what is wrong with it."""
    opening = _OPEN.match(block.lstrip())
    if opening is None:
        return None, None
    names = _CLASS.search(opening["attrs"])
    if names is None or "widget" not in names["names"].split():
        return None, None
    attrs = {m["key"].lower(): html.unescape(m["value"]) for m in _ATTR.finditer(opening["attrs"])}
    missing = [key for key in ("data-widget", "data-src") if not attrs.get(key, "").strip()]
    if missing:
        return None, f"a widget needs {' and '.join(missing)}: the script that draws it and the data file it shows"
    alt = " ".join(html.unescape(_TAG.sub(" ", block.lstrip()[opening.end() :])).split())
    return Widget(line, end_line, attrs["data-widget"].strip(), attrs["data-src"].strip(), alt, block), None
