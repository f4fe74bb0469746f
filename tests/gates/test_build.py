"""The real site: it builds strictly, a warm rebuild runs nothing, and it fetches nothing from elsewhere."""

from __future__ import annotations

import json
import re

import pytest
from sitekit import ROOT, TEST_SITE_URL, front_matter, live_snippets, mkdocs_build, sitemap_pages, strip_live
from sitescan.offline import scan
from sitescan.ties import scan as tie_scan

pytestmark = pytest.mark.slow


def test_the_site_builds_strictly_and_reports_no_problem(site):
    summary = re.search(r"snipcheck: .*?(\d+) problems", site.build.log)
    assert summary, f"no snipcheck summary in the build log:\n{site.build.log}"
    assert summary[1] == "0"
    assert (site.dir / "index.html").is_file()
    assert site.pages, "no page is reachable from the home page"
    print(f"\nsite built in {site.build.seconds:.1f} s: {len(site.pages)} pages")


def test_every_page_is_reachable_and_the_sitemap_agrees(site):
    """The browser tests visit every page a reader can reach from the home page; no page is orphaned."""
    assert site.orphans == [], f"HTML pages no link reaches: {site.orphans}"
    listed = sitemap_pages(site.dir, TEST_SITE_URL)
    for page in listed:
        assert site.file_for(page).is_file(), f"the sitemap lists {page!r}, which was not built"
    assert sorted(listed) == sorted(site.pages), "the sitemap and the pages reachable by links differ"
    print(f"\n{len(site.pages)} pages reachable from the home page; the sitemap lists {len(listed)}")


def test_a_warm_rebuild_runs_only_the_live_snippets_and_gives_the_same_pages(site, tmp_path):
    """A live snippet shows what this build measured, so every build runs it; nothing else runs."""
    warm = mkdocs_build(site.build.project, tmp_path / "site")
    assert warm.ok, warm.log[-6000:]
    ran, cached = warm.snippet_stats()
    live = live_snippets(site.build.project)
    assert (ran, cached > 0) == (len(live), True), (
        f"a warm rebuild ran {ran} snippet(s) ({cached} from cache; live: {sorted(live)}):\n{warm.log}"
    )
    print(f"\nwarm rebuild: {ran} snippets run (the live ones), {cached} from cache, {warm.seconds:.1f} s")
    differ = [
        str(f.relative_to(site.dir))
        for f in site.html_files()
        if strip_live((tmp_path / "site" / f.relative_to(site.dir)).read_text(encoding="utf-8"))
        != strip_live(f.read_text(encoding="utf-8"))
    ]
    assert differ == [], f"pages built from the cache differ from the first build: {differ}"


def test_the_verification_page_is_generated_and_counts_every_check(site):
    page = site.dir / "verification" / "index.html"
    assert page.is_file(), "the generated verification page is missing"
    html = page.read_text(encoding="utf-8")
    logged = re.search(r"snipcheck: .*?(\d+) numbers checked, (\d+) quoted", site.build.log)
    shown = re.search(r"<strong>(\d+)</strong> numbers checked", html)
    quoted = re.search(r"<strong>(\d+)</strong> numbers quoted", html)
    assert logged and shown and quoted, "the verification page or the build log lacks its counts"
    assert (shown[1], quoted[1]) == (logged[1], logged[2])
    rows = len(re.findall(r'<span id="check-', html))
    assert rows == int(logged[1]), f"the verification page has {rows} rows for {logged[1]} checked numbers"
    assert "FAIL" not in html
    print(f"\nverification page: {logged[1]} numbers checked, {logged[2]} quoted")


def test_the_generated_pages_are_left_out_of_the_site_search(site):
    """The verification page's own filter finds a number by value or name; in the site's search its
    rows would bury the pages that teach, as the notebooks would, which repeat their pages' code.
    Every other page the sitemap lists is in the index, except a page whose front matter opts out
    (the glossary: its one-line definitions would outrank the sections that teach each term)."""
    index = json.loads((site.dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    indexed = {doc["location"].split("#", 1)[0] for doc in index["docs"]}
    assert "verification/" not in indexed
    assert not [page for page in indexed if page.startswith("notebooks/")], "notebook pages are in the search index"
    teaching = {page for page in site.pages if page != "verification/" and not page.startswith("notebooks/")}
    opted_out = _opted_out_of_search(ROOT / "docs")
    assert opted_out <= teaching, f"pages opting out of search that the site lacks: {sorted(opted_out - teaching)}"
    assert opted_out & indexed == set(), f"pages opting out of search that are indexed: {sorted(opted_out & indexed)}"
    missing = teaching - indexed - opted_out
    assert missing == set(), f"pages missing from the search index: {sorted(missing)}"


def _opted_out_of_search(docs) -> set[str]:
    """The pages (as directory URLs) whose front matter says ``search: exclude: true``."""
    pages = set()
    for source in sorted(docs.rglob("*.md")):
        meta = front_matter(source)
        search = meta.get("search") if isinstance(meta, dict) else None
        if isinstance(search, dict) and search.get("exclude") is True:
            path = source.relative_to(docs).with_suffix("").as_posix()
            pages.add("" if path == "index" else (path.removesuffix("/index") + "/"))
    return pages


def test_no_page_stylesheet_or_script_fetches_from_another_host(site):
    """Offline is a hard rule: no Google Fonts, no CDN, nothing a browser would fetch from elsewhere,
    by the scan any builder's output can be run through (python -m sitescan offline SITE).

    Plain links the reader may follow (<a href="https://...">), XML namespaces and license comments
    are not fetches and are not reported.
    """
    found, files = scan(site.dir)
    assert files > 0
    assert found == [], "the site would load from another host:\n" + "\n".join(map(str, found))
    print(f"\nscanned {files} HTML/CSS/JS files: nothing fetched from another host")


def test_no_tie_is_left_as_written(site):
    """Every tie became its linked number: the scan any builder's output can be run through
    (python -m sitescan ties SITE) finds none a reader would see as written."""
    found, files = tie_scan(site.dir)
    assert files > 0
    assert found == [], "ties left as written:\n" + "\n".join(map(str, found))
