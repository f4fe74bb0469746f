"""hooks/searchcache.py: a page's search entries are computed once, and again whenever anything
they depend on changed; the search index is the same byte for byte either way."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.structure.toc import AnchorLink

HOOK = Path(__file__).resolve().parents[2] / "hooks" / "searchcache.py"

PAGES = {
    "index.md": "# Home\n\nWelcome, with `code` and *emphasis*.\n\n## First part\n\nText of the first part.\n",
    "b.md": "---\ntitle: Bee\ntags: [one, 2]\nsearch:\n  boost: 2\n---\n\nNo heading first.\n\n## Sec\n\nText.\n",
    "hidden.md": "---\nsearch:\n  exclude: true\n---\n\n# Hidden\n\nNever indexed.\n",
}


@pytest.fixture
def site(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in PAGES.items():
        (docs / name).write_text(text, encoding="utf-8")
    return tmp_path


def write_config(project: Path, *, hook: bool = True, separator: str = "") -> None:
    lines = ["site_name: t", "strict: true", "theme:", "  name: material", "  font: false", "plugins:", "  - search"]
    if separator:
        lines += ["  - search:", f"      separator: '{separator}'"]
        lines.remove("  - search")
    if hook:
        lines.append(f"hooks: [{HOOK}]")
    lines += ["markdown_extensions:", "  - toc:", "      permalink: true"]
    (project / "mkdocs.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def build(monkeypatch):
    """``build(project)`` -> (the pages the search plugin read, the search index's bytes)."""
    from material.plugins.search import plugin as search
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    read: list[str] = []
    original = search.Parser.feed

    def feed(self, data):
        read.append(data.split("</h", 1)[0][-40:])
        return original(self, data)

    monkeypatch.setattr(search.Parser, "feed", feed)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")

    def run(project: Path):
        read.clear()
        mkdocs_build(load_config(str(project / "mkdocs.yml")))
        return list(read), (project / "site" / "search" / "search_index.json").read_bytes()

    return run


def test_the_index_is_the_same_byte_for_byte_with_and_without_the_cache(site, build):
    write_config(site, hook=False)
    without_read, without = build(site)
    assert len(without_read) == 2  # the excluded page gives no entries
    write_config(site)
    first_read, first = build(site)
    assert len(first_read) == 2
    again_read, again = build(site)
    assert again_read == []  # every page's entries reused
    assert first == without and again == without
    assert b"Bee" in again and b'"boost":2' in again and b'"tags":["one","2"]' in again
    assert b"Never indexed" not in again


def test_an_edited_page_alone_is_read_again(site, build):
    write_config(site)
    build(site)
    (site / "docs" / "b.md").write_text(PAGES["b.md"].replace("Text.", "Other words."), encoding="utf-8")
    read, index = build(site)
    assert len(read) == 1
    assert b"Other words." in index and b"Text of the first part." in index
    write_config(site, hook=False)
    assert build(site)[1] == index


def test_a_changed_search_setting_reads_every_page_again(site, build):
    write_config(site)
    build(site)
    write_config(site, separator="[\\s,]+")
    read, index = build(site)
    assert len(read) == 2
    assert b'"separator":"[\\\\s,]+"' in index


def test_an_unreadable_entry_is_read_again_and_stale_entries_are_evicted(site, build):
    write_config(site)
    build(site)
    folder = site / ".cache" / "search"
    entries = sorted(folder.glob("*.json"))
    assert len(entries) == 2
    entries[0].write_text("{not json", encoding="utf-8")
    stale = folder / ("0" * 64 + ".json")
    stale.write_text('{"format": 1, "entries": []}', encoding="utf-8")
    read, _ = build(site)
    assert len(read) == 1
    assert sorted(folder.glob("*.json")) == entries


def _page(**changes):
    link = AnchorLink("Sec", "sec", 2)
    page = {
        "url": "b/",
        "title": "B",
        "meta": {"search": {"boost": 2}},
        "toc": [link],
        "content": "<h2 id='sec'>Sec</h2>",
    }
    return SimpleNamespace(**{**page, **changes})


@pytest.mark.parametrize(
    "change",
    [
        {"url": "c/"},
        {"title": "C"},
        {"meta": {"search": {"boost": 3}}},
        {"meta": {"search": {"boost": 2}, "tags": ["x"]}},
        {"toc": [AnchorLink("Sec", "other", 2)]},
        {"toc": []},
        {"content": "<h2 id='sec'>Sec</h2><p>more</p>"},
    ],
)
def test_the_key_covers_everything_the_entries_read(load_hook, change):
    hook = load_hook("searchcache")
    assert hook.page_key(_page(), "f") == hook.page_key(_page(), "f")
    assert hook.page_key(_page(**change), "f") != hook.page_key(_page(), "f")
    assert hook.page_key(_page(), "g") != hook.page_key(_page(), "f")


def test_the_fingerprint_covers_the_plugins_settings(load_hook):
    from material.plugins.search.plugin import SearchIndex

    hook = load_hook("searchcache")
    settings = {"lang": ["en"], "separator": "[\\s]+", "pipeline": ["stemmer"], "fields": {}}
    same = hook.index_fingerprint(SearchIndex(**settings))
    assert hook.index_fingerprint(SearchIndex(**settings)) == same
    assert hook.index_fingerprint(SearchIndex(**{**settings, "lang": ["de"]})) != same
    assert hook.index_fingerprint(SearchIndex(**{**settings, "pipeline": []})) != same
