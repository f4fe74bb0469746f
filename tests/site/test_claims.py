"""The claims ledger stays in step with the pages: every claim quoted, backed, and every absolute listed.

The ledger format is described in claims_ledger.py (next to this file) and in the README.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from claims_ledger import ABSOLUTES, ledger_problems, read_ledger, read_page

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LEDGERS = ROOT / "claims"

# Pages being written while the ledger was introduced. Each gets its ledger when it lands; remove
# it from this set then (a page that is listed here and has a ledger is an error).
PENDING = {
}


def pages() -> list[Path]:
    return sorted(p for p in DOCS.glob("*.md"))


def ledger_of(page: Path) -> Path:
    return LEDGERS / f"{page.stem}.toml"


def test_every_page_has_a_ledger_and_every_ledger_a_page():
    missing = [p.name for p in pages() if p.name not in PENDING and not ledger_of(p).is_file()]
    assert missing == [], f"pages without a ledger in claims/: {missing}"
    orphans = [lg.name for lg in sorted(LEDGERS.glob("*")) if lg.suffix != ".toml" or not (DOCS / f"{lg.stem}.md").is_file()]
    assert orphans == [], f"files in claims/ that are not the ledger of a page: {orphans}"
    stale = sorted(name for name in PENDING if ledger_of(DOCS / name).is_file())
    assert stale == [], f"these pages have a ledger now: remove them from PENDING in {Path(__file__).name}: {stale}"


@pytest.mark.parametrize("page", [p for p in pages() if ledger_of(p).is_file()], ids=lambda p: p.name)
def test_the_ledger_matches_its_page(page):
    claims = read_ledger(ledger_of(page))
    assert claims, f"{ledger_of(page).relative_to(ROOT)} lists no claim"
    problems = ledger_problems(page.read_text(encoding="utf-8"), page.relative_to(ROOT).as_posix(), claims, ROOT)
    assert problems == [], f"{len(problems)} problems with {ledger_of(page).relative_to(ROOT)}:\n" + "\n".join(problems)


# -- the ledger checker itself, on small pages -------------------------------------------------------

PAGE = """# A page

```python run="01_demo.py"
```

```output
row sums: [1. 1.]
same as the library: True
```

Every row sums to {{ 1 = row_sums[0] }}, as the output shows.
The paper says so (Vaswani et al. 2017, section 3.2.1), and it is only a demo.

- A list item that is never wrong.

See [section 04](04-why-scale.md#the-argument) for more.
"""


def problems_with(claims, page=PAGE):
    return ledger_problems(page, "docs/demo.md", claims, ROOT)


def test_a_complete_ledger_passes():
    claims = [
        {"says": "Every row sums to 1", "checks": ["01_demo:row_sums[0]"], "outputs": ["01_demo: same as the library: True"]},
        {"says": "and it is only a demo", "cite": "section 3.2.1"},
        {"says": "A list item that is never wrong.", "scope": "a demonstration"},
        {"says": "See section 04 for more.", "page": "04-why-scale.md"},
    ]
    assert problems_with(claims) == []


def test_an_absolute_outside_every_claim_is_reported_with_its_line():
    claims = [{"says": "Every row sums to 1", "checks": ["01_demo:row_sums[0]"]}]
    problems = problems_with(claims)
    assert any(p.startswith("docs/demo.md:12: 'only'") for p in problems), problems
    assert any(p.startswith("docs/demo.md:14: 'never'") for p in problems), problems
    assert len(problems) == 2


@pytest.mark.parametrize(
    "claim, message",
    [
        ({"says": "Every row sums to 2", "checks": ["01_demo:row_sums[0]"]}, "does not stand on the page"),
        ({"says": "Every row sums to 1", "checks": ["01_demo:row_sums[1]"]}, "which the page does not tie"),
        ({"says": "Every row sums to 1", "checks": ["row_sums[0]"]}, "which the page does not tie"),
        ({"says": "Every row sums to 1", "outputs": ["01_demo: same as the library: False"]}, "no checked output block"),
        ({"says": "Every row sums to 1", "outputs": ["02_other: row sums"]}, "no checked output block"),
        ({"says": "Every row sums to 1", "cite": "section 3.2.2"}, "which its paragraph does not name"),
        ({"says": "Every row sums to 1", "code": "attn/core.py:no_such_function"}, "which does not exist"),
        ({"says": "Every row sums to 1", "code": "attn/nowhere.py"}, "which does not exist"),
        ({"says": "Every row sums to 1", "page": "04-why-scale.md"}, "which its paragraph does not link to"),
        ({"says": "See section 04 for more.", "page": "99-nowhere.md"}, "which does not exist"),
        ({"says": "Every row sums to 1"}, "names nothing that backs it"),
        ({"says": "Every row sums to 1", "checks": []}, "names nothing that backs it"),
        ({"says": "", "scope": "x"}, "quotes nothing"),
        ({"says": "Every row sums to 1", "scope": "x", "chekcs": ["01_demo:row_sums[0]"]}, "unknown keys"),
    ],
)
def test_each_kind_of_mismatch_is_reported(claim, message):
    problems = [p for p in problems_with([claim]) if "is in no listed claim" not in p]
    assert any(message in p for p in problems), problems


def test_a_claim_listed_twice_is_reported():
    claim = {"says": "Every row sums to 1", "checks": ["01_demo:row_sums[0]"]}
    assert any("is listed twice" in p for p in problems_with([claim, dict(claim)]))


def test_quotes_read_the_page_as_rendered():
    page = read_page("Row C becomes {{ [0.248, 0.503] = w }} and **bold** `code` [a link](x.md){ #id }.\n", "p.md")
    assert page.paragraphs[0].text == "Row C becomes [0.248, 0.503] and bold code a link."


def test_code_output_and_front_matter_are_not_prose():
    text = "---\ndescription: Only a test.\n---\n\n```python\nx = 1  # never\n```\n\n    indented {{ 1 = a }}\n"
    page = read_page(text, "p.md")
    assert all("never" not in p.text and "Only" not in p.text for p in page.paragraphs)


def test_ties_resolve_to_the_nearest_run_block_or_their_named_snippet():
    text = PAGE + "\nAnd {{ 2 = 03_other:n }} and {{ 27.3 @ a source }} and {{ 3..5 ~ growth[2] }}.\n"
    ties = {(t.snippet, t.expr, t.op) for t in read_page(text, "p.md").ties}
    assert ties == {("01_demo", "row_sums[0]", "="), ("03_other", "n", "="), (None, "a source", "@"),
                    ("01_demo", "growth[2]", "~")}


def test_the_absolute_words_are_the_documented_ones():
    assert {"exactly", "always", "never", "only", "any"} <= set(ABSOLUTES)


def test_a_broken_ledger_file_fails_loudly(tmp_path):
    bad = tmp_path / "x.toml"
    bad.write_text('[[claim]]\nsays = "unterminated\n', encoding="utf-8")
    with pytest.raises(Exception, match="x.toml|Illegal|line"):
        read_ledger(bad)
    extra = tmp_path / "y.toml"
    extra.write_text('title = "no"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="unknown top-level keys"):
        read_ledger(extra)
