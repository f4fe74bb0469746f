"""hooks/searchcache.py: a page's search entries are computed once, and again whenever anything
they depend on changed; the search index is the same byte for byte either way."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from mkdocs.structure.toc import AnchorLink


def test_the_index_is_the_same_byte_for_byte_with_and_without_the_cache(search_site):
    search_site.configure(hook=False)
    without_read, without = search_site.build()
    assert len(without_read) == 2  # the excluded page gives no entries
    search_site.configure()
    first_read, first = search_site.build()
    assert len(first_read) == 2
    again_read, again = search_site.build()
    assert again_read == []  # every page's entries reused
    assert first == without and again == without
    assert b"Bee" in again and b'"boost":2' in again and b'"tags":["one","2"]' in again
    assert b"Never indexed" not in again


def test_an_edited_page_alone_is_read_again(cached_search_site):
    site = cached_search_site
    page = site.page("b.md")
    page.write_text(page.read_text(encoding="utf-8").replace("Text.", "Other words."), encoding="utf-8")
    read, index = site.build()
    assert len(read) == 1
    assert b"Other words." in index and b"Text of the first part." in index
    site.configure(hook=False)
    assert site.build()[1] == index


def test_a_changed_search_setting_reads_every_page_again(cached_search_site):
    cached_search_site.configure(separator="[\\s,]+")
    read, index = cached_search_site.build()
    assert len(read) == 2
    assert b'"separator":"[\\\\s,]+"' in index


def test_an_unreadable_entry_is_read_again_and_stale_entries_are_evicted(cached_search_site):
    folder = cached_search_site.root / ".cache" / "search"
    entries = sorted(folder.glob("*.json"))
    assert len(entries) == 2
    entries[0].write_text("{not json", encoding="utf-8")
    stale = folder / ("0" * 64 + ".json")
    stale.write_text('{"format": 1, "entries": []}', encoding="utf-8")
    read, _ = cached_search_site.build()
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
