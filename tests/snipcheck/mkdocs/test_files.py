"""The order MkDocs reads the pages in: those that need a live run still measuring last, so every
other page is read while it runs; and the order back as it was before MkDocs writes anything."""

from __future__ import annotations

import mkdocs.commands.build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files

from snipcheck.mkdocs.files import in_order, read_last

LIVE = '# A\n\n```python run="clock.py" live\n```\n\nIt took {{ 0..1e9 ~ t }} s.\n'


class _Notebook(File):
    """A file a later plugin makes a page (as mkdocs-jupyter does a notebook)."""

    def is_documentation_page(self) -> bool:
        return True


def test_the_pages_picked_go_last_and_every_file_comes_back_in_its_order(tmp_path):
    names = ["a.md", "b.md", "style.css", "n.ipynb", "c.md", "d.md"]
    files = Files([File(name, str(tmp_path / "docs"), str(tmp_path / "out"), True) for name in names])
    order = read_last(files, lambda f: f.src_uri in ("a.md", "c.md"))
    assert order == names
    assert [f.src_uri for f in files.documentation_pages()] == ["b.md", "d.md", "a.md", "c.md"]
    # A later plugin makes the files anew, the notebook a page, and adds one.
    made = Files([_Notebook(f.src_uri, f.src_dir, f.dest_dir, True) if f.src_uri.endswith(".ipynb") else f for f in files])
    made.append(File("added.md", str(tmp_path / "docs"), str(tmp_path / "out"), True))
    in_order(made, order)
    assert [f.src_uri for f in made] == [*names, "added.md"]
    assert [f.src_uri for f in made.documentation_pages()] == ["a.md", "b.md", "n.ipynb", "c.md", "d.md", "added.md"]


def test_a_build_reads_the_live_page_last_and_writes_the_pages_in_their_order(project, mkdocs_yml, monkeypatch):
    (project.root / "mkdocs.yml").write_text(mkdocs_yml(nav=("a.md", "b.md", "c.md", "verification.md")), encoding="utf-8")
    project.page("a.md", LIVE)
    project.page("b.md", "# B\n\nProse.\n")
    project.page("c.md", "# C\n\nProse.\n")
    project.snippet("clock.py", "import time\n\nstart = time.perf_counter()\ntime.sleep(0.5)\nt = time.perf_counter() - start\n")
    read, written = [], []
    populate, build_page = mkdocs_build._populate_page, mkdocs_build._build_page
    monkeypatch.setattr(mkdocs_build, "_populate_page", lambda page, *a, **k: read.append(page.file.src_uri) or populate(page, *a, **k))
    monkeypatch.setattr(mkdocs_build, "_build_page", lambda page, *a, **k: written.append(page.file.src_uri) or build_page(page, *a, **k))
    config = load_config(str(project.root / "mkdocs.yml"), site_dir=str(project.root / "out"))
    config.plugins.on_startup(command="build", dirty=False)
    try:
        mkdocs_build.build(config)
    finally:
        config.plugins.on_shutdown()
    assert read == ["b.md", "c.md", "a.md", "verification.md"]
    assert written == ["a.md", "b.md", "c.md", "verification.md"]
    assert "It took" in (project.root / "out" / "a" / "index.html").read_text(encoding="utf-8")
