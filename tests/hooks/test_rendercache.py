"""hooks/rendercache.py: a page is converted once, and again whenever anything it depends on changed."""

from __future__ import annotations

import json
from pathlib import Path

import markdown
import pytest

HOOK = Path(__file__).resolve().parents[2] / "hooks" / "rendercache.py"


@pytest.fixture
def site(tmp_path):
    """A small MkDocs project with the hook: two pages, one linking to a section of the other."""
    docs = tmp_path / "docs"
    docs.mkdir()
    home = "# Home\n\nSee [the section](b.md#sec).\n\n```python\nx = 1\n```\n"
    (docs / "index.md").write_text(home, encoding="utf-8")
    (docs / "b.md").write_text("# B\n\n## Sec\n\nText.\n", encoding="utf-8")
    return tmp_path


def write_config(project: Path, *, permalink: bool = False, extensions: tuple[str, ...] = ()) -> None:
    lines = [
        "site_name: t",
        "strict: true",
        f"hooks: [{HOOK}]",
        "markdown_extensions:",
        "  - toc:",
        f"      permalink: {str(permalink).lower()}",
        *(f"  - {e}" for e in extensions),
    ]
    (project / "mkdocs.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def build(monkeypatch):
    """``build(project)`` -> (the pages converted from Markdown, {page: its HTML}); raises as MkDocs does."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    converted: list[str] = []
    original = markdown.Markdown.convert

    def convert(self, source):
        converted.append(source.splitlines()[0] if source else "")
        return original(self, source)

    monkeypatch.setattr(markdown.Markdown, "convert", convert)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")  # the theme stamps each page with its build date

    def run(project: Path):
        converted.clear()
        mkdocs_build(load_config(str(project / "mkdocs.yml")))
        written = (project / "site").rglob("index.html")
        pages = {p.parent.name: p.read_text(encoding="utf-8") for p in written}
        return list(converted), pages

    return run


def test_an_unchanged_page_is_not_converted_again_and_reads_the_same(site, build):
    write_config(site)
    first, html = build(site)
    assert sorted(first) == ["# B", "# Home"]
    again, html_again = build(site)
    assert again == []
    assert html_again == html


def test_an_edited_page_alone_is_converted_again(site, build):
    write_config(site)
    build(site)
    (site / "docs" / "b.md").write_text("# B\n\n## Sec\n\nOther text.\n", encoding="utf-8")
    converted, html = build(site)
    assert converted == ["# B"]
    assert "Other text." in html["b"]


def test_a_new_page_converts_every_page_again(site, build):
    """Links resolve against the build's files: a page added or removed changes every key."""
    write_config(site)
    build(site)
    (site / "docs" / "c.md").write_text("# C\n", encoding="utf-8")
    converted, _ = build(site)
    assert sorted(converted) == ["# B", "# C", "# Home"]


def test_changed_extension_settings_convert_every_page_again(site, build):
    write_config(site)
    build(site)
    write_config(site, permalink=True)
    converted, html = build(site)
    assert sorted(converted) == ["# B", "# Home"]
    assert 'class="headerlink"' in html["b"]


def test_an_edited_local_extension_converts_every_page_again(site, build, monkeypatch):
    """A project's own extension (a module outside the installed packages) is keyed by its source."""
    folder = site / "ext"
    folder.mkdir()
    (folder / "localext.py").write_text(
        "from markdown import Extension\n"
        "class E(Extension):\n"
        "    def extendMarkdown(self, md):\n"
        "        pass\n"
        "def makeExtension(**kwargs):\n"
        "    return E(**kwargs)\n",
        encoding="utf-8",
    )
    (folder / "helper.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    write_config(site, extensions=("localext",))
    build(site)
    assert build(site)[0] == []
    (folder / "helper.py").write_text("VALUE = 2\n", encoding="utf-8")  # a file beside it
    assert sorted(build(site)[0]) == ["# B", "# Home"]


def test_a_broken_link_fails_a_strict_build_when_the_page_is_reused(site, build):
    """What a conversion logged is logged again when it is reused: strict fails both times."""
    from mkdocs.exceptions import Abort

    write_config(site)
    (site / "docs" / "b.md").write_text("# B\n\nSee [nowhere](missing.md).\n", encoding="utf-8")
    with pytest.raises(Abort):
        build(site)
    with pytest.raises(Abort):
        converted, _ = build(site)
    cached = [json.loads(p.read_text(encoding="utf-8")) for p in (site / ".cache" / "render").glob("*.json")]
    assert any("missing.md" in message for entry in cached for _, _, message in entry["log"])


def test_an_unreadable_entry_is_converted_afresh(site, build):
    write_config(site)
    _, html = build(site)
    for entry in (site / ".cache" / "render").glob("*.json"):
        entry.write_text('{"format": 1, "content": ', encoding="utf-8")  # cut short
    converted, html_again = build(site)
    assert sorted(converted) == ["# B", "# Home"]
    assert html_again == html


def test_entries_no_build_used_are_deleted(site, build):
    write_config(site)
    build(site)
    (site / "docs" / "b.md").write_text("# B\n\nNew.\n", encoding="utf-8")
    build(site)
    assert len(list((site / ".cache" / "render").glob("*.json"))) == 2
