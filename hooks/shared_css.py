"""MkDocs hook: large inline stylesheets become one shared, cacheable file.

mkdocs-jupyter writes nbconvert's whole notebook stylesheet (about 590 KB) into every notebook page.
Each ``<style>`` block of at least ``MIN_BYTES`` is written once to ``assets/shared-css/<hash>.css``
(named by a hash of its text, so identical blocks share one file and a reader's browser downloads it
once) and replaced, in place, by a ``<link>`` to that file, so the order of the cascade is unchanged.
A block with attributes other than ``type="text/css"``, or one whose CSS points at a relative
``url(...)`` (which would resolve against another folder once moved), stays inline.

Runs after hooks/offline.py, which has already checked the inline CSS for remote fetches.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

MIN_BYTES = 2048
FOLDER = "assets/shared-css"

_STYLE = re.compile(r"<style(?P<attrs>[^>]*)>(?P<css>.*?)</style>", re.DOTALL | re.IGNORECASE)
_PLAIN_ATTRS = re.compile(r"""^\s*(?:type\s*=\s*["']?text/css["']?)?\s*$""", re.IGNORECASE)
_URL = re.compile(r"""url\(\s*["']?(?P<target>[^"')\s]*)""", re.IGNORECASE)


def movable(attrs: str, css: str) -> bool:
    """Whether a ``<style>`` block can live in a file of its own without changing its meaning."""
    if len(css.encode()) < MIN_BYTES or not _PLAIN_ATTRS.match(attrs):
        return False
    targets = (m.group("target") for m in _URL.finditer(css))
    return all(t.startswith(("data:", "#")) for t in targets)


def share_styles(html: str, page_url: str, site_dir: Path) -> str:
    """``html`` with each movable ``<style>`` block replaced by a ``<link>`` to a file written
    under ``site_dir``; ``page_url`` is the page's URL relative to the site root."""

    def replace(match: re.Match) -> str:
        if not movable(match.group("attrs"), match.group("css")):
            return match.group(0)
        data = match.group("css").encode()
        name = f"{FOLDER}/{hashlib.sha256(data).hexdigest()[:16]}.css"
        path = site_dir / name
        if not path.exists():  # named by its content: an existing file already holds these bytes
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return f'<link rel="stylesheet" href="{get_relative_url(name, page_url)}">'

    return _STYLE.sub(replace, html)


def on_post_page(output: str, page, config) -> str:
    return share_styles(output, page.url, Path(config["site_dir"]))
