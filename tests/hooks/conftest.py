"""Shared fixtures for the tests of the MkDocs hooks (hooks/, one test module per hook)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HOOKS = Path(__file__).resolve().parents[2] / "hooks"


@pytest.fixture(scope="session")
def load_hook():
    """``load_hook(name)`` -> the module hooks/NAME.py, loaded by path as MkDocs loads it."""

    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"hooks_{name}", HOOKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load


SEARCH_PAGES = {
    "index.md": "# Home\n\nWelcome, with `code` and *emphasis*.\n\n## First part\n\nText of the first part.\n",
    "b.md": "---\ntitle: Bee\ntags: [one, 2]\nsearch:\n  boost: 2\n---\n\nNo heading first.\n\n## Sec\n\nText.\n",
    "hidden.md": "---\nsearch:\n  exclude: true\n---\n\n# Hidden\n\nNever indexed.\n",
}


@dataclass
class SearchSite:
    """A three-page Material project with the search plugin (one page excluded from search), for
    hooks/searchcache.py: ``configure`` writes its mkdocs.yml, ``build`` builds it in this process."""

    root: Path
    read: list[str] = field(default_factory=list)  # the pages the search plugin read, last build

    def page(self, name: str) -> Path:
        return self.root / "docs" / name

    def configure(self, *, hook: bool = True, separator: str = "") -> None:
        lines = ["site_name: t", "strict: true", "theme:", "  name: material", "  font: false", "plugins:"]
        lines += [f"  - search:\n      separator: '{separator}'" if separator else "  - search"]
        if hook:
            lines.append(f"hooks: [{HOOKS / 'searchcache.py'}]")
        lines += ["markdown_extensions:", "  - toc:", "      permalink: true"]
        (self.root / "mkdocs.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def build(self) -> tuple[list[str], bytes]:
        """(the pages the search plugin read, the search index's bytes)."""
        from mkdocs.commands.build import build as mkdocs_build
        from mkdocs.config import load_config

        self.read.clear()
        mkdocs_build(load_config(str(self.root / "mkdocs.yml")))
        return list(self.read), (self.root / "site" / "search" / "search_index.json").read_bytes()


@pytest.fixture
def search_site(tmp_path, monkeypatch) -> SearchSite:
    """A fresh SearchSite, not configured yet; the search plugin's parser records what it reads."""
    from material.plugins.search import plugin as search

    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in SEARCH_PAGES.items():
        (docs / name).write_text(text, encoding="utf-8")
    site = SearchSite(tmp_path)
    original = search.Parser.feed

    def feed(parser, data):
        site.read.append(data.split("</h", 1)[0][-40:])
        return original(parser, data)

    monkeypatch.setattr(search.Parser, "feed", feed)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    return site


@pytest.fixture
def cached_search_site(search_site) -> SearchSite:
    """A SearchSite with the hook, built once: the hook's cache holds every page's entries."""
    search_site.configure()
    search_site.build()
    return search_site
