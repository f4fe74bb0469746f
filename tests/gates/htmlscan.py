"""Reading built HTML with the standard library: links, ids, and what a browser would fetch."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

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
LINK_NOT_FETCHED = {"canonical", "alternate", "author", "license", "me", "nofollow", "next", "prev", "help",
                    "bookmark", "external", "noopener", "noreferrer", "search", "tag", "privacy-policy",
                    "terms-of-service"}
REMOTE = re.compile(r"^\s*(?:https?:)?//", re.IGNORECASE)
CSS_FETCHES = re.compile(r"""url\(\s*(["']?)\s*(?P<url>[^"')\s]+)|@import\s+(?:url\()?\s*["']?(?P<imp>[^"')\s;]+)""",
                         re.IGNORECASE)
# In JavaScript, the loads a script can spell as a literal URL.
JS_FETCHES = re.compile(r"""(?:importScripts|fetch|import|new\s+Worker|\.open\s*\(\s*["'][A-Z]+["']\s*,)\s*\(?\s*["'`]"""
                        r"""(?P<url>(?:https?:)?//[^"'`\s]+)""", re.IGNORECASE)


def css_urls(css: str) -> list[str]:
    """Every URL a stylesheet fetches: url(...) and @import."""
    return [m["url"] or m["imp"] for m in CSS_FETCHES.finditer(css) if (m["url"] or m["imp"])]


def srcset_urls(value: str) -> list[str]:
    return [part.strip().split()[0] for part in value.split(",") if part.strip()]


@dataclass
class Tag:
    name: str
    attrs: dict[str, str]
    line: int


@dataclass
class ParsedPage:
    tags: list[Tag] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    styles: list[tuple[str, int]] = field(default_factory=list)  # <style> text and style="" values
    duplicate_ids: set[str] = field(default_factory=set)

    def links(self) -> list[tuple[Tag, str, str]]:
        """(tag, attribute, url) for every URL-valued attribute on the page."""
        out = []
        for tag in self.tags:
            for attr in ("href", "src", "xlink:href", "data", "poster", "action"):
                if attr in tag.attrs and tag.attrs[attr] is not None:
                    out.append((tag, attr, tag.attrs[attr]))
            if tag.attrs.get("srcset"):
                out += [(tag, "srcset", url) for url in srcset_urls(tag.attrs["srcset"])]
        return out

    def fetched(self) -> list[tuple[Tag, str]]:
        """(tag, url) for every URL the browser fetches while showing the page."""
        out = []
        for tag in self.tags:
            if tag.name == "link":
                rels = set((tag.attrs.get("rel") or "").lower().split())
                if rels and rels <= LINK_NOT_FETCHED:
                    continue
                if tag.attrs.get("href"):
                    out.append((tag, tag.attrs["href"]))
                continue
            for attr in FETCHED_ATTRS.get(tag.name, ()):
                value = tag.attrs.get(attr)
                if value:
                    out += [(tag, url) for url in (srcset_urls(value) if attr == "srcset" else [value])]
            if tag.name == "meta" and (tag.attrs.get("http-equiv") or "").lower() == "refresh":
                content = tag.attrs.get("content") or ""
                if "url=" in content.lower():
                    out.append((tag, content.split("=", 1)[1]))
        for text, line in self.styles:
            out += [(Tag("style", {}, line), url) for url in css_urls(text)]
        return out


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = ParsedPage()
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attributes = {name.lower(): value for name, value in attrs}
        line = self.getpos()[0]
        self.page.tags.append(Tag(tag.lower(), attributes, line))
        for key in ("id", "name") if tag.lower() == "a" else ("id",):
            value = attributes.get(key)
            if value:
                if value in self.page.ids and key == "id":
                    self.page.duplicate_ids.add(value)
                self.page.ids.add(value)
        if attributes.get("style"):
            self.page.styles.append((attributes["style"], line))
        self._in_style = tag.lower() == "style"

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self._in_style = False

    def handle_endtag(self, tag):
        if tag.lower() == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.page.styles.append((data, self.getpos()[0]))


def parse_html(text: str) -> ParsedPage:
    parser = _Parser()
    parser.feed(text)
    parser.close()
    return parser.page


def is_remote(url: str) -> bool:
    return REMOTE.match(url) is not None
