"""MkDocs hook: large inline stylesheets become one shared, cacheable file.

mkdocs-jupyter writes nbconvert's whole notebook stylesheet (about 590 KB) into every notebook page.
Each ``<style>`` block of at least ``MIN_BYTES`` is written once to ``assets/shared-css/<hash>.css``
(named by a hash of its text, so identical blocks share one file and a reader's browser downloads it
once) and replaced, in place, by a ``<link>`` to that file, so the order of the cascade is unchanged.
A block with attributes other than ``type="text/css"``, or one whose CSS points at a relative
``url(...)`` (which would resolve against another folder once moved), stays inline.

It runs on each page's content as soon as it is made (``on_page_content``), so the theme's
template, the search index and hooks/offline.py read a link instead of the whole stylesheet, on
every notebook page. The CSS it moves is checked here instead, by the offline scan's rule
(toolchain/sitescan/offline.py): a block that would fetch anything from another host fails the
build, naming the page, as hooks/offline.py does for what stays inline.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url
from sitescan.offline import css_urls, is_remote

MIN_BYTES = 2048
FOLDER = "assets/shared-css"

# The text up to the first "</style>": a run of anything but "<", then each "<" that does not
# start the end tag, and the run after it (what ".*?</style>" finds, without a retry at every character).
_STYLE = re.compile(r"<style(?P<attrs>[^>]*)>(?P<css>[^<]*(?:<(?!/style>)[^<]*)*)</style>", re.IGNORECASE)
_PLAIN_ATTRS = re.compile(r"""^\s*(?:type\s*=\s*["']?text/css["']?)?\s*$""", re.IGNORECASE)
_URL = re.compile(r"""url\(\s*["']?(?P<target>[^"')\s]*)""", re.IGNORECASE)


def movable(attrs: str, css: str) -> bool:
    """Whether a ``<style>`` block can live in a file of its own without changing its meaning."""
    if len(css.encode()) < MIN_BYTES or not _PLAIN_ATTRS.match(attrs):
        return False
    targets = (m.group("target") for m in _URL.finditer(css))
    return all(t.startswith(("data:", "#")) for t in targets)


@functools.lru_cache(maxsize=64)  # every notebook page holds the same few blocks: each is read once
def _moved(attrs: str, css: str) -> tuple[str, bytes, tuple[str, ...]] | None:
    """(the shared file's path under the site, its bytes, the URLs on another host it would load)
    of a block that moves; None for one that stays inline."""
    if not movable(attrs, css):
        return None
    data = css.encode()
    remote = tuple(sorted({url for url in css_urls(css) if is_remote(url)}))
    return f"{FOLDER}/{hashlib.sha256(data).hexdigest()[:16]}.css", data, remote


def share_styles(html: str, page_url: str, site_dir: Path, page: str = "the page") -> str:
    """``html`` with each movable ``<style>`` block replaced by a ``<link>`` to a file written
    under ``site_dir``; ``page_url`` is the page's URL relative to the site root, ``page`` what
    a failure names."""

    def replace(match: re.Match) -> str:
        moved = _moved(match.group("attrs"), match.group("css"))
        if moved is None:
            return match.group(0)
        name, data, remote = moved
        if remote:
            loads = ", ".join(remote)
            raise PluginError(f"{page}: the page would load {loads} from another host; the site must work offline")
        path = site_dir / name
        if not path.exists():  # named by its content: an existing file already holds these bytes
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return f'<link rel="stylesheet" href="{get_relative_url(name, page_url)}">'

    return _STYLE.sub(replace, html)


def on_page_content(html: str, page, config, files) -> str:
    return share_styles(html, page.url, Path(config["site_dir"]), f"docs/{page.file.src_uri}")
