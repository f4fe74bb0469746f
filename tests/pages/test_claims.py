"""The claims ledger stays in step with the pages: every claim quoted, backed, and every absolute listed.

The ledger format is described in toolchain/claims_ledger.py (tested in
tests/toolchain/test_claims_ledger.py) and in the README.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from claims_ledger import ledger_problems, read_ledger

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LEDGERS = ROOT / "claims"

# Pages being written while the ledger was introduced. Each gets its ledger when it lands; remove
# it from this set then (a page that is listed here and has a ledger is an error).
PENDING = {}


def pages() -> list[Path]:
    return sorted(p for p in DOCS.glob("*.md"))


def ledger_of(page: Path) -> Path:
    return LEDGERS / f"{page.stem}.toml"


def test_every_page_has_a_ledger_and_every_ledger_a_page():
    missing = [p.name for p in pages() if p.name not in PENDING and not ledger_of(p).is_file()]
    assert missing == [], f"pages without a ledger in claims/: {missing}"
    orphans = [
        lg.name for lg in sorted(LEDGERS.glob("*")) if lg.suffix != ".toml" or not (DOCS / f"{lg.stem}.md").is_file()
    ]
    assert orphans == [], f"files in claims/ that are not the ledger of a page: {orphans}"
    stale = sorted(name for name in PENDING if ledger_of(DOCS / name).is_file())
    assert stale == [], f"these pages have a ledger now: remove them from PENDING in {Path(__file__).name}: {stale}"


@pytest.mark.parametrize("page", [p for p in pages() if ledger_of(p).is_file()], ids=lambda p: p.name)
def test_the_ledger_matches_its_page(page):
    claims = read_ledger(ledger_of(page))
    assert claims, f"{ledger_of(page).relative_to(ROOT)} lists no claim"
    problems = ledger_problems(page.read_text(encoding="utf-8"), page.relative_to(ROOT).as_posix(), claims, ROOT)
    assert problems == [], f"{len(problems)} problems with {ledger_of(page).relative_to(ROOT)}:\n" + "\n".join(problems)
