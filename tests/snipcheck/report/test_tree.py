"""``python -m snipcheck render OUT``: the rendered Markdown tree, written whole or not at all, and
buildable by MkDocs without the snipcheck plugin."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from snipcheck.cli import main
from snipcheck.report.tree import MARKER

PAGE = """\
---
description: One page.
---
# P

```python run="s.py"
```

```output
x = 0.5
```

It is {{ %s = x }}, as {{ 27.3 @ a source }} says.

![A line](figures/s/line.svg)
"""
SNIPPET = """
import matplotlib.pyplot as plt

x = 0.5
print("x =", x)
fig, ax = plt.subplots()
ax.plot([0, 1], [0, x])
fig.savefig("line.svg")
"""


@pytest.fixture
def site(project):
    project.page("p.md", PAGE % "0.5")
    project.page("notes.md", "# Notes\n\nNo snippet here.\n")
    (project.root / "docs" / "assets").mkdir()
    (project.root / "docs" / "assets" / "logo.txt").write_bytes(b"\x00binary\xff")
    project.snippet("s.py", SNIPPET)
    return project


def _render(project, out, *extra) -> int:
    return main(["render", str(out), "--root", str(project.root), *extra])


def test_the_tree_holds_every_file_each_page_rendered_and_what_the_build_adds(site, tmp_path, capsys):
    out = tmp_path / "out"
    assert _render(site, out) == 0
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [MARKER, "assets/logo.txt", "figures/s/line.svg", "notebooks/p.ipynb", "notes.md", "p.md", "verification.md"]
    assert (out / "assets" / "logo.txt").read_bytes() == b"\x00binary\xff"
    page = (out / "p.md").read_text(encoding="utf-8")
    assert page.startswith("---\ndescription: One page.\n---\n")  # the front matter stays for the builder
    assert 'title="snippets/s.py"' in page and 'print("x =", x)' in page  # the code is on the page
    assert "[0.5](verification.md#check-p-13-1" in page and "{{" not in page
    assert "[see it with its outputs](notebooks/p.ipynb)" in page
    assert (out / "notes.md").read_text(encoding="utf-8") == "# Notes\n\nNo snippet here.\n"
    notebook = json.loads((out / "notebooks" / "p.ipynb").read_text(encoding="utf-8"))
    assert "../../p/" in "".join(notebook["cells"][0]["source"])
    assert "rendered 2 page(s)" in capsys.readouterr().err


def test_notebooks_link_to_the_published_site_when_told_where_it_is(site, tmp_path):
    assert _render(site, tmp_path / "out", "--site-url", "https://example.org/sub/") == 0
    notebook = json.loads((tmp_path / "out" / "notebooks" / "p.ipynb").read_text(encoding="utf-8"))
    assert "[P](https://example.org/sub/p/)" in "".join(notebook["cells"][0]["source"])


def test_a_required_file_of_the_site_becomes_its_url_and_installs_only_what_is_imported(site, tmp_path):
    args = [
        "--site-url",
        "https://example.org/sub/",
        "--require",
        "matplotlib=matplotlib==3.11.2",
        "--require",
        "attn=downloads/attn-0.1.0-py3-none-any.whl",
        "--require",
        "scipy=scipy",
    ]
    assert _render(site, tmp_path / "out", *args) == 0
    notebook = json.loads((tmp_path / "out" / "notebooks" / "p.ipynb").read_text(encoding="utf-8"))
    setup = "".join(notebook["cells"][1]["source"])
    assert "('matplotlib', 'matplotlib==3.11.2')" in setup  # s.py imports matplotlib
    assert "attn" not in setup and "scipy" not in setup  # nothing imports them


@pytest.mark.parametrize(
    "pair, message",
    [
        ("attn", "write MODULE=REQUIREMENT"),
        ("=x", "write MODULE=REQUIREMENT"),
        ("a b=x", "write MODULE=REQUIREMENT"),
        ("attn=downloads/attn.whl", "needs --site-url"),
    ],
)
def test_a_requirement_written_wrong_is_refused(site, tmp_path, capsys, pair, message):
    with pytest.raises(SystemExit) as exit_info:
        _render(site, tmp_path / "out", "--require", pair)
    assert exit_info.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_problem_writes_nothing(site, tmp_path, capsys):
    site.page("p.md", PAGE % "0.7")
    out = tmp_path / "out"
    assert _render(site, out) == 1
    assert "docs/p.md:13: documented 0.7, computed x = 0.5" in capsys.readouterr().err
    assert not out.exists()


def test_a_second_render_replaces_the_first_whole(site, tmp_path):
    out = tmp_path / "out"
    assert _render(site, out) == 0
    (site.root / "docs" / "notes.md").unlink()
    assert _render(site, out) == 0
    assert not (out / "notes.md").exists() and (out / "p.md").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["out"] or all(not p.name.startswith(".out.") for p in tmp_path.iterdir())


@pytest.mark.parametrize("where", ["docs", "docs/sub", ".", "..", "full", "file"])
def test_a_folder_render_must_not_replace_is_refused_and_left_alone(site, capsys, where):
    (site.root / "full").mkdir()
    (site.root / "full" / "keep.txt").write_text("mine")
    (site.root / "file").write_text("mine")
    out = site.root / where
    assert _render(site, out) == 2
    assert "snipcheck: render:" in capsys.readouterr().err
    assert (site.root / "full" / "keep.txt").read_text() == "mine" and (site.root / "file").read_text() == "mine"
    assert (site.root / "docs" / "p.md").is_file()


def test_render_needs_its_folder_and_check_takes_none(site, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["render", "--root", str(site.root)])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit):
        main(["check", "somewhere", "--root", str(site.root)])


def test_mkdocs_builds_the_tree_without_the_plugin(site, mkdocs_yml):
    out = site.root / "out"
    assert _render(site, out) == 0
    (site.root / "plain.yml").write_text(mkdocs_yml(nav=("p.md", "notes.md", "verification.md"), docs_dir="out", plugin=False), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "plain.yml", "-d", "site"],
        cwd=site.root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    html = (site.root / "site" / "p" / "index.html").read_text(encoding="utf-8")
    assert 'id="tie-13-1"' in html and 'class="checked-number"' in html
    assert (site.root / "site" / "figures" / "s" / "line.svg").is_file()
    assert "snippets/s.py" in (site.root / "site" / "verification" / "index.html").read_text(encoding="utf-8")


def _content(html: str) -> str:
    """The page's own content: what Markdown made of it, without the theme's navigation."""
    start = html.index('<h1 id="verification">')
    return html[start : html.index("</script>", html.rindex("</details>")) + len("</script>")]


def test_the_plugin_writes_the_verification_page_as_markdown_renders_it_with_every_anchor_found(site, mkdocs_yml):
    """The plugin sets the ledger's row tables aside from Markdown (they are HTML already) and puts
    them back: the page must come out as the plain build of the tree gives it, and every link to a
    row's anchor must still resolve (strict, anchors checked)."""
    out = site.root / "out"
    assert _render(site, out) == 0
    checked = "validation:\n  anchors: warn\n"
    plain = mkdocs_yml(nav=("p.md", "notes.md", "verification.md"), docs_dir="out", plugin=False)
    (site.root / "plain.yml").write_text(plain + checked, encoding="utf-8")
    (site.root / "plugin.yml").write_text(mkdocs_yml(nav=("p.md", "notes.md", "verification.md")) + checked, encoding="utf-8")
    pages = {}
    for name in ("plain", "plugin"):
        run = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", f"{name}.yml", "-d", name],
            cwd=site.root,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        pages[name] = _content((site.root / name / "verification" / "index.html").read_text(encoding="utf-8"))
    assert 'id="check-p-13-1"' in pages["plugin"] and "<table>" in pages["plugin"]
    assert "snipcheck-rows " not in pages["plugin"]  # no placeholder left behind
    assert pages["plugin"] == pages["plain"]
