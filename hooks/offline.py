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
"""

from __future__ import annotations

import re

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from sitescan.offline import is_remote, remote_html_fetches

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


def on_post_page(output: str, page, config) -> str:
    output = _NBCONVERT_MATHJAX.sub("", output)
    remote = remote_fetches(output)
    if remote:
        raise PluginError(
            f"docs/{page.file.src_uri}: the page would load {', '.join(sorted(set(remote)))} "
            "from another host; the site must work offline"
        )
    return output
