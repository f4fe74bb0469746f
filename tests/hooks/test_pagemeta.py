"""hooks/pagemeta.py: what each page says of itself (here: its edit link)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def pagemeta(load_hook):
    return load_hook("pagemeta")


def test_only_a_page_with_a_source_in_docs_keeps_its_edit_link(pagemeta, tmp_path):
    from types import SimpleNamespace

    docs, cache = tmp_path / "docs", tmp_path / ".cache"
    docs.mkdir()
    cache.mkdir()
    (docs / "a.md").write_text("# A\n", encoding="utf-8")
    (cache / "n.ipynb").write_text("{}", encoding="utf-8")

    def page(path, generated_by=None):
        file = SimpleNamespace(
            src_uri=Path(path).name if path else "v.md",
            abs_src_path=str(path) if path else None,
            generated_by=generated_by,
        )
        return SimpleNamespace(file=file, edit_url="https://example.org/edit/x", meta={"description": "d"})

    written, notebook, generated = page(docs / "a.md"), page(cache / "n.ipynb"), page(None, "snipcheck")
    for p in (written, notebook, generated):
        pagemeta.on_page_context({}, p, SimpleNamespace(docs_dir=str(docs)), None)
    assert written.edit_url == "https://example.org/edit/x"
    assert notebook.edit_url is None and generated.edit_url is None
    assert "search" not in written.meta
    assert notebook.meta["search"] == {"exclude": True} and generated.meta["search"] == {"exclude": True}


def test_the_search_plugin_reads_the_exclusion_after_it_is_set(pagemeta):
    """The hook's handler runs before the search plugin's (priority 50 against its default 0)."""
    assert pagemeta.on_page_context.mkdocs_priority > 0
