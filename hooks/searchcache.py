"""MkDocs hook: a page's entries in Material's search index are not computed again while the page
and everything its entries depend on are the same.

Material's search plugin reads every page's final HTML with ``html.parser`` to split it into
sections, on every build and on every rebuild under plain ``mkdocs serve``; it was the largest
part of a build in which nothing changed. Here the entries a page gave are kept in
``.cache/search`` and appended again, in the same order, while the key is the same. The key covers
everything ``SearchIndex.add_entry_from_context`` reads:

- the page's HTML as the plugin is about to read it, its URL, its title, its front matter (a
  title, tags, a search boost) and its table of contents (a section's link is its heading's);
- the plugin's settings (language, separator, pipeline, fields) and the source of the module that
  reads the pages, the installed version of Material, and the source of this hook.

A page excluded from search is passed to the plugin as it is (it gives no entries). When jieba is
installed, the plugin segments Chinese text with a dictionary this key does not cover: nothing is
cached then. A cache entry that cannot be read is ignored and written afresh.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import os
import sys
from pathlib import Path

FORMAT = 1  # the layout of an entry; a new layout misses every old entry


def _toc(items) -> list:
    return [{"title": a.title, "id": a.id, "url": a.url, "level": a.level, "children": _toc(a.children)} for a in items]


def _digest(path: str | None) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else "no-file"
    except OSError:
        return "unreadable"


def index_fingerprint(index) -> str:
    """What decides a page's entries beyond the page: the plugin's settings, its code, this hook."""
    try:
        version = importlib.metadata.version("mkdocs-material")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    parts = {
        "format": FORMAT,
        "config": json.dumps(index.config, sort_keys=True, default=repr),
        "material": version,
        "module": _digest(inspect.getsourcefile(type(index))),
        "hook": _digest(__file__),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def page_key(page, fingerprint: str) -> str:
    digest = hashlib.sha256()
    meta = json.dumps(page.meta, sort_keys=True, default=repr)
    for part in (fingerprint, page.url, str(page.title), meta, json.dumps(_toc(page.toc)), page.content):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


class SearchCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()  # the keys this build looked up
        self.calls = 0  # the pages the plugin was given, excluded ones too

    def read(self, key: str) -> list | None:
        try:
            entry = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(entry, dict) and entry.get("format") == FORMAT and isinstance(entry.get("entries"), list):
            return entry["entries"]
        return None

    def write(self, key: str, entries: list) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{key}.json"
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"format": FORMAT, "entries": entries}), encoding="utf-8")
        os.replace(temporary, path)  # a reader sees the whole entry or none

    def evict_unused(self) -> None:
        """Delete every entry this build did not look up (only after a build that gave the plugin
        every page: a dirty rebuild gives it those it rebuilds)."""
        for path in self.folder.glob("*.json"):
            if path.stem not in self.used:
                path.unlink(missing_ok=True)

    def wrap(self, index) -> None:
        """Replace ``index.add_entry_from_context`` (for this index only) by a lookup, reading the
        page on a miss."""
        read_page = type(index).add_entry_from_context.__get__(index)  # the plugin's own, never a wrapper
        fingerprint = index_fingerprint(index)

        def add_entry_from_context(page):
            self.calls += 1
            if (page.meta.get("search") or {}).get("exclude"):
                return read_page(page)
            key = page_key(page, fingerprint)
            self.used.add(key)
            entries = self.read(key)
            if entries is not None:
                index.entries.extend(entries)
                return None
            before = len(index.entries)
            read_page(page)
            self.write(key, index.entries[before:])
            return None

        index.add_entry_from_context = add_entry_from_context


def _search_indexes(config) -> list:
    """The search index of each of Material's search plugins in the build."""
    module = sys.modules.get("material.plugins.search.plugin")
    if module is None:
        return []
    found = []
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if isinstance(plugin, module.SearchPlugin) and isinstance(index, module.SearchIndex):
            found.append(index)
    return found


_build: dict[str, object] = {}  # this build's cache and the number of pages it renders


def on_pre_build(config):
    _build.clear()
    module = sys.modules.get("material.plugins.search.plugin")
    if module is None or getattr(module, "jieba", None) is not None:
        return
    cache = SearchCache(Path(config.config_file_path).resolve().parent / ".cache" / "search")
    for index in _search_indexes(config):  # made afresh by the plugin's on_config, every build
        cache.wrap(index)
    _build["cache"] = cache


def on_files(files, config):
    _build["pages"] = len(files.documentation_pages())
    return files


def on_post_build(config):
    cache = _build.pop("cache", None)
    # Only a build that gave the plugin every page knows which entries are stale.
    if isinstance(cache, SearchCache) and cache.calls >= _build.pop("pages", 0) and cache.folder.is_dir():
        cache.evict_unused()
