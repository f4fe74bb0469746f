"""The MkDocs layer: a real build fails on drift before writing; a preview shows the problem."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import get_files

MKDOCS_YML = """
site_name: t
docs_dir: docs
plugins:
  - snipcheck:
      notebooks_dir: ""
markdown_extensions:
  - attr_list
  - md_in_html
  - tables
  - pymdownx.superfences
nav:
  - p.md
  - verification.md
"""

PAGE = '# P\n\n```python run="one.py"\n```\n\n```output\nx = 0.5\n```\n\nIt is {{ %s = x }}.\n'


@pytest.fixture
def site(project):
    (project.root / "mkdocs.yml").write_text(textwrap.dedent(MKDOCS_YML), encoding="utf-8")
    project.snippet("one.py", "x = 0.5\nprint('x =', x)\n")
    return project


def _mkdocs_build(root):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", str(root / "out")], cwd=root,
                          env=env, capture_output=True, text=True, timeout=120)


def test_a_matching_site_builds_with_its_verification_page(site):
    site.page("p.md", PAGE % "0.5")
    run = _mkdocs_build(site.root)
    assert run.returncode == 0, run.stderr
    assert (site.root / "out" / "p" / "index.html").is_file()
    verification = (site.root / "out" / "verification" / "index.html").read_text(encoding="utf-8")
    assert "snippets/one.py" in verification and "<table>" in verification


def test_a_drift_fails_mkdocs_build_without_strict_and_writes_no_page(site):
    site.page("p.md", PAGE % "0.7")
    run = _mkdocs_build(site.root)
    assert run.returncode != 0
    assert "docs/p.md:10: documented 0.7, computed x = 0.5 (snippets/one.py)" in run.stderr
    assert not (site.root / "out" / "p" / "index.html").exists()


def test_under_serve_the_page_shows_the_problem_and_the_preview_goes_on(site, capsys):
    site.page("p.md", PAGE % "0.7")
    config = load_config(str(site.root / "mkdocs.yml"))
    plugins = config.plugins
    plugins.on_startup(command="serve", dirty=False)
    config = plugins.on_config(config)
    files = plugins.on_files(get_files(config), config=config)  # does not raise
    assert "docs/p.md:10: documented 0.7" in capsys.readouterr().err
    page = type("Page", (), {"file": files.get_file_from_path("p.md")})()
    markdown = plugins.on_page_markdown("", page=page, config=config, files=files)
    assert markdown.startswith('!!! failure "This page does not build')
    plugins.on_startup(command="build", dirty=False)
    with pytest.raises(PluginError, match="docs/p.md:10: documented 0.7"):
        plugins.on_files(get_files(config), config=config)
