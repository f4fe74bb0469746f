"""MkDocs hook: the site loads nothing from another host, and the build proves it page by page.

nbconvert's notebook template always adds a MathJax script from a CDN; our notebooks hold code and
plain Markdown only, so that block is removed. Material's offline plugin adds its search shim
(iframe-worker) from a CDN; the site serves its own copy of the same file instead
(docs/assets/vendor/, from the npm package). Any other script, stylesheet, font, image or frame
that a page would fetch from another host fails the build with the page's name, by the rule of the
offline scan that any builder's output can be run through (``python -m sitescan offline SITE``,
toolchain/sitescan/offline.py), which also reads the built CSS and JavaScript. The large
stylesheets hooks/shared_css.py moves out of the pages before this reads them are checked there,
by the same rule.

What a page would fetch is kept in ``.cache/offline`` (``Fetches``), keyed by the page as written,
the source of the scan (the sitescan package), of this hook and Python's version: a page that did
not change is not read again, and fails the build again if it failed it. A build that wrote every
page keeps only the pages it wrote.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

import sitescan.offline
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from sitescan.offline import is_remote, remote_html_fetches

FORMAT = 1  # the layout of the kept file; a new layout reads every page again

_NBCONVERT_MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.DOTALL)


# A polyfill a plugin adds from another host -> the site's own copy of the same file.
VENDORED_POLYFILLS = {"iframe-worker": "assets/vendor/iframe-worker/shim.js"}


def local_polyfills(polyfills: list[str]) -> list[str]:
    """``polyfills`` with each remote script that the site vendors replaced by its local copy."""
    out = []
    for url in polyfills:
        local = next((path for name, path in VENDORED_POLYFILLS.items() if name in url), None)
        out.append(local if local and is_remote(url) else url)
    return out


def remote_fetches(html: str) -> list[str]:
    """Every URL on another host that a browser would fetch while showing ``html``."""
    return [url for _, _, url in remote_html_fetches(html)]


def scan_fingerprint() -> str:
    """What decides a page's fetches beyond the page: the scan's code, this hook's, Python's version."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}".encode())
    for path in [*sorted(Path(sitescan.offline.__file__).parent.glob("*.py")), Path(__file__)]:
        digest.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _urls(value) -> bool:
    return isinstance(value, list) and all(isinstance(url, str) for url in value)


class Fetches:
    """``remote_fetches`` of each page, kept in ``folder`` between builds."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "fetches.json"
        self.fingerprint = scan_fingerprint()
        self.kept: dict[str, list[str]] = {}
        self.used: dict[str, list[str]] = {}  # what this build looked up
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(kept, dict) and all(map(_urls, kept.values())):
                self.kept = kept
        except (OSError, ValueError):
            pass

    def remote_fetches(self, html: str) -> list[str]:
        key = hashlib.sha256(f"{self.fingerprint}\0{html}".encode("utf-8", "surrogatepass")).hexdigest()
        found = self.kept.get(key)
        if found is None:
            found = remote_fetches(html)
        self.used[key] = found
        return found

    def save(self, every_page: bool) -> None:
        """Keep what this build read; drop the rest only after a build that wrote every page."""
        kept = self.used if every_page else {**self.kept, **self.used}
        if kept == self.kept:
            return
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(kept), encoding="utf-8")
            os.replace(temporary, self.path)  # a reader sees the whole file or none
        except OSError:
            pass  # not kept: read again next time


def offline_build(config) -> bool:
    """Whether Material's offline plugin is on (the build for reading from file://)."""
    plugin = next((p for name, p in config.plugins.items() if name.split("/")[-1] == "offline"), None)
    return bool(plugin and plugin.config.enabled)


@event_priority(-50)  # after the plugins' own on_config (the offline plugin adds its shim there)
def on_config(config):
    if config.extra.get("polyfills"):
        config.extra["polyfills"] = local_polyfills(list(config.extra["polyfills"]))
    if offline_build(config):  # file:// has no fetch for instant navigation: every link loads its page
        config.theme["features"] = [f for f in config.theme["features"] if not f.startswith("navigation.instant")]
    return config


_build: dict[str, object] = {}  # this build's kept fetches, whether it writes every page


def on_startup(command, dirty):
    _build["dirty"] = dirty


def on_pre_build(config):
    _build["fetches"] = Fetches(Path(config.config_file_path).resolve().parent / ".cache" / "offline")


def on_post_page(output: str, page, config) -> str:
    output = _NBCONVERT_MATHJAX.sub("", output)
    fetches = _build.get("fetches")
    remote = fetches.remote_fetches(output) if isinstance(fetches, Fetches) else remote_fetches(output)
    if remote:
        raise PluginError(
            f"docs/{page.file.src_uri}: the page would load {', '.join(sorted(set(remote)))} "
            "from another host; the site must work offline"
        )
    return output


def on_post_build(config):
    fetches = _build.pop("fetches", None)
    if isinstance(fetches, Fetches):
        fetches.save(every_page=not _build.get("dirty", False))
