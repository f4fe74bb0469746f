"""House rule 8: every public function names the page that teaches it, and that page does."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import attn

ROOT = Path(__file__).resolve().parent.parent


def _page_and_snippets(page: Path) -> str:
    section = page.stem.split("-", 1)[0]
    snippets = sorted((ROOT / "snippets").glob(f"{section}_*.py"))
    return page.read_text(encoding="utf-8") + "".join(s.read_text(encoding="utf-8") for s in snippets)


@pytest.mark.parametrize("name", attn.__all__)
def test_each_public_function_names_a_page_that_uses_it(name):
    pages = re.findall(r"Taught on: (docs/[\w.-]+\.md)", inspect.getdoc(getattr(attn, name)) or "")
    assert pages, f"attn.{name} names no page ('Taught on: docs/PAGE.md')"
    for page in pages:
        path = ROOT / page
        assert path.is_file(), f"attn.{name} names {page}, which does not exist"
        assert re.search(rf"\b{name}\b", _page_and_snippets(path)), f"{page} never mentions attn.{name}"
