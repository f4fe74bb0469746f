"""toolchain/lazy_jupyter.py: mkdocs-jupyter's plugin, nbconvert imported only when a notebook is
converted; the notebook page is the same either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# A notebook\n", "\n", "Some prose."]},
        {
            "cell_type": "code",
            "id": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": ["marker-output 42\n"]}],
            "source": ["print('marker-output', 6 * 7)"],
        },
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}

# One build in a fresh interpreter: whether nbconvert was imported, and the notebook's page.
BUILD = """
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config("mkdocs.yml"))
print("nbconvert" in sys.modules, "jupytext" in sys.modules and "jupytext.formats" in sys.modules)
"""


def _site(root: Path, plugin: str) -> Path:
    (root / "docs" / "notebooks").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (root / "docs" / "notebooks" / "n.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    config = f'site_name: t\nplugins:\n  - {plugin}:\n      include: ["notebooks/*.ipynb"]\n      execute: false\n'
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


def _build(root: Path) -> tuple[bool, str]:
    imported, page, _ = _build_reading_jupytext(root)
    return imported, page


def _build_reading_jupytext(root: Path) -> tuple[bool, str, bool]:
    """Whether the build imported nbconvert, the notebook's page, and whether it loaded jupytext."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "0"}
    run = subprocess.run([sys.executable, "-c", BUILD], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    page = (root / "site" / "notebooks" / "n" / "index.html").read_text(encoding="utf-8")
    return run.stdout.split()[-2] == "True", page, run.stdout.split()[-1] == "True"


@pytest.mark.timeout(600)
def test_nbconvert_is_imported_only_to_convert_and_the_page_is_the_same(tmp_path):
    lazy = _site(tmp_path / "lazy", "mkdocs-jupyter-lazy")
    imported, page = _build(lazy)
    assert imported and "marker-output 42" in page  # converted: nbconvert was needed
    imported_again, page_again = _build(lazy)
    assert not imported_again, "a build whose notebook came from mkdocs-jupyter's cache imported nbconvert"
    assert page_again == page
    _, plain = _build(_site(tmp_path / "plain", "mkdocs-jupyter"))
    assert plain == page  # mkdocs-jupyter's own plugin, loaded as it loads itself, renders the same


@pytest.mark.timeout(600)
def test_jupytext_is_loaded_only_to_read_a_markdown_page_the_plugin_is_not_told_to_ignore(tmp_path):
    lazy = _site(tmp_path / "lazy", "mkdocs-jupyter-lazy")
    config = (lazy / "mkdocs.yml").read_text(encoding="utf-8")
    ignoring = config.replace("      execute: false\n", '      execute: false\n      ignore: ["*.md"]\n')
    (lazy / "mkdocs.yml").write_text(ignoring, encoding="utf-8")
    _build_reading_jupytext(lazy)  # converts the notebook (its converter may read with jupytext)
    assert _build_reading_jupytext(lazy)[2] is False
    (lazy / "mkdocs.yml").write_text(config, encoding="utf-8")  # now it reads index.md with jupytext, to decide
    imported, page, loaded = _build_reading_jupytext(lazy)
    assert loaded and "marker-output 42" in page
