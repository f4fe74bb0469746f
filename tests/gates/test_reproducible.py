"""Reproducible build: two clean builds of the same sources give the same site, byte for byte.

Two builds, each with an empty cache (so every snippet and notebook runs again), in different
folders and separate processes (so paths, hash seeds, thread timing and temp names differ), the
second as if on another day (SOURCE_DATE_EPOCH). This is also make test's determinism check: a
snippet whose output changes from run to run gives two different sites here (``make publish``
also runs each new result twice side by side, SNIPCHECK_TWICE, which names the snippet). Every
HTML and SVG file must be identical, and so must everything else the site ships, except what is measured live:

- pages are compared with what was measured live removed: the output of run blocks marked
  ``live`` and the measured part of range ties (``<span class="live-number">``), on the pages and
  on the verification page;
- the figures drawn by live snippets are left out (they show what this build measured); the
  notebooks are compared whole (a live cell stores no measurement);
- the sitemap's gzip copy is compared by content (its header carries the build date).

The live parts are found by parsing the pages, not listed by hand.
"""

from __future__ import annotations

import gzip
import json
import re

import pytest
from sitekit import LIVE_NUMBER, LIVE_TEXT, ROOT, copy_project, mkdocs_build, mkdocs_config, strip_live

from snipcheck import parse

pytestmark = pytest.mark.slow


def live_parts(project) -> tuple[set[str], set[str]]:
    """(pages with a live run block, as site folders; snippet stems that run live)."""
    docs = project / mkdocs_config(project).get("docs_dir", "docs")
    pages, stems = set(), set()
    for file in sorted(docs.rglob("*.md")):
        doc = parse(file.read_text(encoding="utf-8"), file.relative_to(project).as_posix())
        live = [run for run in doc.runs if run.live]
        if live:
            uri = file.relative_to(docs).as_posix()[: -len(".md")]
            pages.add("" if uri == "index" else uri.removesuffix("/index") + "/")
            stems |= {run.snippet.rsplit(".", 1)[0] for run in live}
    return pages, stems


def _clean(run) -> bool:
    """True if the build ran every snippet and rendered every notebook afresh (no cache at all)."""
    ran, cached = run.snippet_stats()
    return ran > 0 and cached == 0 and "Cache hit" not in run.log


@pytest.fixture(scope="module")
def two_builds(site_build, second_clean_build, tmp_path_factory):
    """Two clean builds. The second, of a copy in another folder, as if on another day, is made
    beside the session's own build (pipeline.py). On a fresh clone the session's build was clean
    (its cache was empty), so it is the first; otherwise the first is made from another copy."""
    if site_build.ok and _clean(site_build):
        first = site_build
    else:
        root = tmp_path_factory.mktemp("reproducible-a")
        first = mkdocs_build(copy_project(root / "a"), root / "a-site")
    second = second_clean_build
    for run in (first, second):
        assert run.ok, f"a clean build failed:\n{run.log[-6000:]}"
        assert _clean(run), f"a clean build reused cached results:\n{run.log[-3000:]}"
    return first, second


def _comparable(rel: str, data: bytes, live_pages: set[str]) -> bytes:
    if rel.endswith(".gz"):
        return gzip.decompress(data)
    if rel.endswith(".html"):
        return strip_live(data.decode("utf-8")).encode("utf-8")
    if rel == "search/search_index.json":
        index = json.loads(data)
        for doc in index.get("docs", []):
            page = doc["location"].split("#", 1)[0]
            if page in live_pages:  # (the verification page is not in the index)
                doc["text"] = "(page with live output)"
            doc["text"] = LIVE_TEXT.sub("(measured: live)", LIVE_NUMBER.sub("(live)", doc.get("text", "")))
        return json.dumps(index, sort_keys=False).encode("utf-8")
    return data


def test_two_clean_builds_give_the_same_site(two_builds):
    first, second = two_builds
    live_pages, live_stems = live_parts(first.project)
    excluded_prefixes = tuple(f"figures/{stem}/" for stem in live_stems)
    files_a = {p.relative_to(first.site_dir).as_posix() for p in first.site_dir.rglob("*") if p.is_file()}
    files_b = {p.relative_to(second.site_dir).as_posix() for p in second.site_dir.rglob("*") if p.is_file()}
    assert files_a == files_b, f"the two builds wrote different files: {sorted(files_a ^ files_b)}"
    differ, excluded, compared = [], [], 0
    for rel in sorted(files_a):
        if rel.startswith(excluded_prefixes):
            excluded.append(rel)
            continue
        a = _comparable(rel, (first.site_dir / rel).read_bytes(), live_pages)
        b = _comparable(rel, (second.site_dir / rel).read_bytes(), live_pages)
        compared += 1
        if a != b:
            differ.append(f"{rel}: {_first_difference(a, b)}")
    live_html = sorted(p for p in live_pages)
    print(
        f"\ntwo clean builds ({first.seconds:.0f} s and {second.seconds:.0f} s; {first.project} and {second.project}): "
        f"{compared} files identical; live output stripped from {live_html or 'no page'}; "
        f"left out as measured live: {excluded or 'nothing'}"
    )
    assert differ == [], f"{len(differ)} files differ between two clean builds:\n" + "\n".join(differ)
    html = [f for f in files_a if f.endswith(".html") and not f.startswith(excluded_prefixes)]
    svg = [f for f in files_a if f.endswith(".svg") and not f.startswith(excluded_prefixes)]
    assert html and svg


def _first_difference(a: bytes, b: bytes) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return (
        f"first difference at byte {at}: {a[max(0, at - 60) : at + 60]!r} vs {b[max(0, at - 60) : at + 60]!r}"
        f" (sizes {len(a)} and {len(b)})"
    )


def test_live_parts_are_found_by_parsing():
    """The exceptions come from the pages themselves: every live run block, none guessed."""
    pages, stems = live_parts(ROOT)
    docs = ROOT / mkdocs_config().get("docs_dir", "docs")
    marked = sum(
        len(re.findall(r"^\s*(`{3,}|~{3,})\w*[^\n]*\brun=[^\n]*\blive\b", f.read_text(encoding="utf-8"), re.M))
        for f in docs.rglob("*.md")
    )
    assert bool(marked) == bool(stems), "a live run block was missed by the parser, or invented"
