"""Reading built HTML with the standard library: links, ids, and what a browser would fetch."""

from __future__ import annotations

from dataclasses import dataclass, field

# What a browser fetches is the offline guard's own rule (python -m sitescan offline SITE), and so
# is the reading of tags and CSS (TagsAndStyles).
from sitescan.offline import JS_FETCHES, TagsAndStyles, css_urls, is_remote, srcset_urls, tag_fetches  # noqa: F401


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
        out = [(tag, url) for tag in self.tags for url in tag_fetches(tag.name, tag.attrs)]
        for text, line in self.styles:
            out += [(Tag("style", {}, line), url) for url in css_urls(text)]
        return out


class _Parser(TagsAndStyles):
    def __init__(self) -> None:
        super().__init__()
        self.page = ParsedPage()

    def tag(self, name, attributes, line):
        self.page.tags.append(Tag(name, attributes, line))
        for key in ("id", "name") if name == "a" else ("id",):
            value = attributes.get(key)
            if value:
                if value in self.page.ids and key == "id":
                    self.page.duplicate_ids.add(value)
                self.page.ids.add(value)

    def css(self, text, line):
        self.page.styles.append((text, line))


def parse_html(text: str) -> ParsedPage:
    parser = _Parser()
    parser.feed(text)
    parser.close()
    return parser.page
