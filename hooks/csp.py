"""MkDocs hook: every page carries a Content-Security-Policy, so the browser itself refuses anything
from another host.

The policy (a ``<meta http-equiv>`` at the top of each page's ``<head>``, before any script):

- ``default-src 'self'``: scripts, stylesheets, fonts, frames, workers and every ``fetch`` (search
  index, instant navigation) come from the site itself;
- ``script-src 'self'`` and the SHA-256 of each inline script the site has (Material's start-up
  scripts, the site's own in overrides/main.html, mkdocs-jupyter's on notebook pages): a script
  that is in no page of this build does not run. The hashes are those of the whole site, not of
  one page: instant navigation runs the next page's inline scripts under the first page's policy;
- ``style-src 'self' 'unsafe-inline'``: Material, Pygments and mkdocs-jupyter write style
  attributes and ``<style>`` blocks. Inline style cannot fetch from another host: a ``url()`` in it
  is still governed by ``img-src`` and ``font-src``;
- ``img-src 'self' data:``: Material's icons are SVG ``data:`` URLs in its stylesheet, and a
  notebook's figures are ``data:`` images;
- ``object-src 'none'``, ``base-uri 'self'``.

The offline build (file://, Material's offline plugin) allows inline scripts as such instead of by
hash: its search runs in an iframe (the iframe-worker shim) whose inline script names the search
worker by its address on the reader's disk, which no build can know. Everything else, and the
rule that nothing comes from another host, is the same.

``mkdocs serve`` writes no policy: its live reload injects an inline script into every page it
serves. The hashes are collected in ``on_post_build`` from the HTML files as written (a ``--dirty`` rebuild
keeps pages it did not rebuild), and every page gets the same policy; tests/gates/test_browser.py
fails on any violation the browser reports.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from mkdocs.plugins import event_priority

# An inline script the browser runs: no src, and a JavaScript type (or none).
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)((?:\s[^>]*)?)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
_TYPE = re.compile(r"""\stype=["']?([^"'\s>]*)""", re.IGNORECASE)
_SCRIPT_TYPES = {"", "module", "text/javascript", "application/javascript"}
_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">\n?')
_HEAD = re.compile(r"<head>\s*(<meta charset=[^>]*>\s*)?", re.IGNORECASE)

BASE_POLICY = (
    "default-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
)


def inline_script_hashes(html: str) -> set[str]:
    """CSP source expressions (``'sha256-...'``) of every inline script ``html`` would run."""
    hashes = set()
    for attributes, body in _INLINE_SCRIPT.findall(html):
        kind = _TYPE.search(attributes)
        if kind and kind[1].lower() not in _SCRIPT_TYPES:  # application/json and the like: data, never run
            continue
        digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii")
        hashes.add(f"'sha256-{digest}'")
    return hashes


def policy(hashes: set[str], any_inline_script: bool = False) -> str:
    """The policy, with ``hashes`` allowed as inline scripts (sorted: the same site, the same bytes),
    or with every inline script allowed (``any_inline_script``: the offline build)."""
    if any_inline_script:
        script = "script-src 'self' 'unsafe-inline'"
    else:
        script = " ".join(["script-src 'self'", *sorted(hashes)])
    return "; ".join([BASE_POLICY[0], script, *BASE_POLICY[1:]])


def with_policy(html: str, content: str) -> str:
    """``html`` with its policy ``<meta>`` (any older one replaced) first in its ``<head>``."""
    html = _META.sub("", html)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{content}">\n'
    return _HEAD.sub(lambda m: m.group(0) + meta, html, count=1)


_serving = False


def _offline_build(config) -> bool:
    """Whether Material's offline plugin is on (the build read from file://)."""
    plugins = getattr(config, "plugins", None) or {}
    plugin = next((p for name, p in plugins.items() if name.split("/")[-1] == "offline"), None)
    return bool(plugin and plugin.config.enabled)


def on_startup(command, dirty):
    global _serving
    _serving = command == "serve"


@event_priority(-200)  # after every plugin and hook has written its pages (the offline plugin: -100)
def on_post_build(config):
    if _serving:
        return
    pages = sorted(Path(config.site_dir).rglob("*.html"))
    texts = {path: path.read_text(encoding="utf-8") for path in pages}
    hashes = set().union(*(inline_script_hashes(text) for text in texts.values()))
    content = policy(hashes, any_inline_script=_offline_build(config))
    for path, text in texts.items():
        if not _HEAD.search(text):
            continue  # not a page (an HTML fragment a plugin copied)
        new = with_policy(text, content)
        if new != text:
            path.write_text(new, encoding="utf-8")
