"""The offline guard for any builder's output: ``python -m sitescan offline SITE``.

A site that works offline makes no request to another host while it is shown. This reads a built
site folder (MkDocs, ProperDocs, Zensical or anything else that writes HTML) and lists every URL on
another host that a browser would fetch from it, each with its ``file:line``:

- HTML: what a tag loads (``<script src>``, ``<img src/srcset>``, ``<link rel=stylesheet|icon|
  preload...>``, ``<iframe src>``, media, SVG ``<image>``/``<use>``, ``<object data>``, a refresh
  ``<meta>``), and the ``url(...)``/``@import`` of inline CSS (``<style>``, ``style=""``);
- CSS files: ``url(...)`` and ``@import``;
- JavaScript files: a literal remote URL given to ``fetch``, ``import``, ``importScripts``,
  ``new Worker`` or ``XMLHttpRequest.open``, and remote CSS written in a script.

Links the reader may follow (``<a href>``), ``<link rel=canonical|alternate...>``, XML namespaces
and licence comments are not fetches. A URL built at run time from pieces is beyond a static scan
(the browser tests watch the requests themselves). Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from .site import report, site_files

# Attributes whose URL the browser fetches while showing the page (not links the reader follows).
FETCHED_ATTRS = {
    "img": ("src", "srcset"),
    "source": ("src", "srcset"),
    "script": ("src",),
    "iframe": ("src",),
    "frame": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "audio": ("src",),
    "video": ("src", "poster"),
    "track": ("src",),
    "input": ("src",),  # type=image
    "image": ("href", "xlink:href"),  # SVG
    "use": ("href", "xlink:href"),  # SVG
    "feimage": ("href", "xlink:href"),  # SVG
}
# <link rel=...> values that only describe a relation; every other rel (stylesheet, icon,
# preload, modulepreload, manifest, prefetch...) makes the browser fetch the href.
LINK_NOT_FETCHED = {
    "canonical",
    "alternate",
    "author",
    "license",
    "me",
    "nofollow",
    "next",
    "prev",
    "help",
    "bookmark",
    "external",
    "noopener",
    "noreferrer",
    "search",
    "tag",
    "privacy-policy",
    "terms-of-service",
}
REMOTE = re.compile(r"^\s*(?:https?:)?//", re.IGNORECASE)
CSS_FETCHES = re.compile(
    r"""url\(\s*(["']?)\s*(?P<url>[^"')\s]+)|@import\s+(?:url\()?\s*["']?(?P<imp>[^"')\s;]+)""", re.IGNORECASE
)
# In JavaScript, the loads a script can spell as a literal URL.
JS_FETCHES = re.compile(
    r"""(?:importScripts|fetch|import|new\s+Worker|\.open\s*\(\s*["'][A-Z]+["']\s*,)"""
    r"""\s*\(?\s*["'`]"""
    r"""(?P<url>(?:https?:)?//[^"'`\s]+)""",
    re.IGNORECASE,
)
HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".svg")
CSS_SUFFIXES = (".css",)
JS_SUFFIXES = (".js", ".mjs")


def is_remote(url: str) -> bool:
    return REMOTE.match(url) is not None


def css_urls(css: str) -> list[str]:
    """Every URL a stylesheet fetches: url(...) and @import."""
    return [m["url"] or m["imp"] for m in CSS_FETCHES.finditer(css) if (m["url"] or m["imp"])]


def srcset_urls(value: str) -> list[str]:
    return [part.strip().split()[0] for part in value.split(",") if part.strip()]


def tag_fetches(name: str, attrs: dict[str, str | None]) -> list[str]:
    """The URLs a browser fetches for one tag (``name`` lower case, attribute names lower case)."""
    if name == "link":
        rels = set((attrs.get("rel") or "").lower().split())
        if rels and rels <= LINK_NOT_FETCHED:
            return []
        return [attrs["href"]] if attrs.get("href") else []
    out = []
    for attr in FETCHED_ATTRS.get(name, ()):
        value = attrs.get(attr)
        if value:
            out += srcset_urls(value) if attr == "srcset" else [value]
    if name == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh":
        content = attrs.get("content") or ""
        if "url=" in content.lower():
            out.append(content.split("=", 1)[1].strip())
    return out


@dataclass(frozen=True)
class Fetch:
    path: str  # relative to the site folder
    line: int  # 0: the file as a whole (a line is not known)
    what: str  # "<script>", "CSS", "script"
    url: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.what} fetches {self.url} from another host"


class TagsAndStyles(HTMLParser):
    """Reads HTML into two calls: ``tag(name, attributes, line)`` for each start tag (names and
    attribute names lower case) and ``css(text, line)`` for each piece of CSS, a ``style=""``
    value or the text of a ``<style>`` element. A subclass says what it keeps of them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._in_style = False

    def tag(self, name: str, attributes: dict[str, str | None], line: int) -> None:
        """One start tag."""

    def css(self, text: str, line: int) -> None:
        """One piece of CSS."""

    def handle_starttag(self, tag, attrs):
        name, attributes = tag.lower(), {key.lower(): value for key, value in attrs}
        line = self.getpos()[0]
        self.tag(name, attributes, line)
        if attributes.get("style"):
            self.css(attributes["style"], line)
        self._in_style = name == "style"

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self._in_style = False

    def handle_endtag(self, tag):
        if tag.lower() == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.css(data, self.getpos()[0])


class _Fetches(TagsAndStyles):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str, str]] = []  # (line, what, url)

    def tag(self, name, attributes, line):
        self.found += [(line, f"<{name}>", url) for url in tag_fetches(name, attributes)]

    def css(self, text, line):
        self.found += [(line, "inline CSS", url) for url in css_urls(text)]


def html_fetches(html: str) -> list[tuple[int, str, str]]:
    """(line, what, url) for every URL a browser fetches while showing ``html``, on any host."""
    parser = _Fetches()
    parser.feed(html)
    parser.close()
    return parser.found


_TAG_BODY = r"""\b(?:[^>"']|"[^"]*"|'[^']*')*>"""
# The parts of a page that can fetch: start tags of the elements that load something and style
# blocks; comments and the text of scripts are passed over. Style attributes, on any tag: _STYLE_ATTR.
_PARTS = re.compile(  # one "<" first: most of a page's tags are rejected at their second character
    r"<(?:!--.*?-->"
    r"|style" + _TAG_BODY + r"(?P<css>.*?)</style\s*>"
    r"|(?P<script>script" + _TAG_BODY + r").*?</script\s*>"
    r"|(?P<tag>(?:"
    + "|".join(sorted(set(FETCHED_ATTRS) | {"link", "meta"}, key=len, reverse=True))
    + r")"
    + _TAG_BODY
    + "))",
    re.IGNORECASE | re.DOTALL,
)
_STYLE_ATTR = re.compile(r"""\sstyle\s*=\s*(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)')""", re.IGNORECASE)


def remote_html_fetches(html: str) -> list[tuple[int, str, str]]:
    """(line, what, url) for every URL on another host that a browser fetches while showing
    ``html``: what ``html_fetches`` finds on another host, without parsing the whole page (a page of
    highlighted code or formulas holds many thousands of tags, none of which fetches anything)."""
    found, passed_over = [], []
    for part in _PARTS.finditer(html):
        text = part.group()
        if part["tag"] is None:
            passed_over.append((part.start(), part.end()))  # its text is not markup
        if "//" not in text:  # a URL on another host starts with // or a scheme and //
            continue
        line = html.count("\n", 0, part.start())
        if part["css"] is not None:
            css = part["css"]
            start = part.start("css") - part.start()
            found += [
                (line + text.count("\n", 0, start + css.find(url)) + 1, "inline CSS", url)
                for url in css_urls(css)
                if is_remote(url)
            ]
        elif part["script"] is not None or part["tag"] is not None:
            tag = "<" + part["script"] if part["script"] is not None else text
            found += [
                (line + at, what, url) for at, what, url in html_fetches(tag) if is_remote(url) if what != "inline CSS"
            ]  # style attributes: below, for every tag alike
    for attr in _STYLE_ATTR.finditer(html):
        value = attr["double"] if attr["double"] is not None else attr["single"]
        if "//" not in value or any(a <= attr.start() < b for a, b in passed_over):
            continue
        line = html.count("\n", 0, attr.start()) + 1
        found += [(line, "inline CSS", url) for url in css_urls(unescape(value)) if is_remote(url)]
    return sorted(found, key=lambda f: f[0])


def remote_fetches(text: str, suffix: str, path: str = "") -> list[Fetch]:
    """What a file of the given suffix (``.html``, ``.css``, ``.js``) fetches from another host."""
    suffix = suffix.lower()
    if suffix in HTML_SUFFIXES:
        return [Fetch(path, line, what, url) for line, what, url in remote_html_fetches(text)]
    if suffix in CSS_SUFFIXES:
        return [Fetch(path, _line(text, url), "CSS", url) for url in css_urls(text) if is_remote(url)]
    if suffix in JS_SUFFIXES:
        found = [Fetch(path, text.count("\n", 0, m.start()) + 1, "script", m["url"]) for m in JS_FETCHES.finditer(text)]
        found += [Fetch(path, _line(text, url), "CSS in a script", url) for url in css_urls(text) if is_remote(url)]
        return found
    return []


def _line(text: str, needle: str) -> int:
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


def scan(site: Path) -> tuple[list[Fetch], int]:
    """(every remote fetch in the built site folder ``site``, how many files were read)."""
    found, files = [], 0
    for path, text in site_files(site, HTML_SUFFIXES + CSS_SUFFIXES + JS_SUFFIXES):
        files += 1
        found += remote_fetches(text, path.suffix.lower(), path.relative_to(site).as_posix())
    return found, files


def main(site: str) -> int:
    """Exit 0: nothing fetched from another host; 1: each fetch listed; 2: not a site folder."""
    return report(
        "offline",
        site,
        scan,
        "HTML, CSS or JavaScript",
        lambda n, files: f"{n} fetch(es) from another host in {files} files: the site must work offline",
        lambda files: f"{files} files read, nothing fetched from another host",
    )
