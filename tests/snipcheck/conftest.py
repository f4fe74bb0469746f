"""Fixtures for the checker's tests (the helpers they build on: snipkit.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from snipkit import Project, mkdocs_config


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


@pytest.fixture
def mkdocs_yml():
    """``mkdocs_yml(nav=..., notebooks_dir=..., serve_wait=..., docs_dir=..., plugin=...)``: the
    one MkDocs configuration of the tests, as text (see ``snipkit.mkdocs_config``)."""
    return mkdocs_config
