"""Reading offline: the build of `make offline`, opened from disk (file://) in Debian's Chromium.

- every link between pages points at a file (a link to a folder shows a directory listing);
- from the home page, every page of the navigation opens by clicking, styled, with its formulas in
  the site's math font; search finds a page and its result opens; nothing is fetched from anywhere
  but the files themselves;
- the zip the site offers (`make publish`) is that build, byte for byte reproducible, under one
  folder;
- the search shim the offline build needs is served from the site (the npm package's file).
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from htmlscan import is_remote, parse_html
from sitekit import NODE_MODULES, OFFLINE_ZIP, ROOT, write_offline_zip

pytestmark = pytest.mark.slow

LOCAL = ("file:", "data:", "blob:", "about:")
NOT_PAGES = ("mailto:", "tel:", "javascript:", "data:", "blob:", "about:", "#")


@pytest.fixture(scope="module")
def offline(offline_build) -> Path:
    if not offline_build.ok:
        pytest.fail(f"the offline build failed:\n{offline_build.log[-6000:]}", pytrace=False)
    return offline_build.site_dir


def test_every_link_between_pages_points_at_a_file(offline):
    problems, checked = [], 0
    for file in sorted(offline.rglob("*.html")):
        for tag, attr, url in parse_html(file.read_text(encoding="utf-8")).links():
            url = url.strip()
            if (
                not url
                or is_remote(url)
                or url.lower().startswith(NOT_PAGES)
                or tag.name not in ("a", "link", "script", "img")
            ):
                continue
            if file.name == "404.html":
                continue  # served by a web server for a missing path; never opened from disk
            checked += 1
            target = (file.parent / unquote(urlsplit(url).path)).resolve()
            if not target.is_file():
                kind = "a folder (the browser shows a listing)" if target.is_dir() else "missing"
                problems.append(f"{file.relative_to(offline)}:{tag.line}: <{tag.name} {attr}={url!r}> is {kind}")
    assert checked > 0
    assert problems == [], f"{len(problems)} links that do not open from disk:\n" + "\n".join(problems[:40])
    print(f"\n{checked} links in the offline build, each to a file")


@pytest.mark.browser
def test_navigation_and_search_work_from_disk(offline, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    requests, errors = [], []
    try:
        context.on("request", lambda r: requests.append(r.url))
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        home = (offline / "index.html").as_uri()
        page.goto(home, wait_until="load")
        nav = page.evaluate("""() => Array.from(document.querySelectorAll("nav.md-nav--primary a.md-nav__link[href]"))
                               .filter((a) => !a.getAttribute("href").startsWith("#")).map((a) => a.href)""")
        nav = [url for url in dict.fromkeys(nav) if url.split("#")[0] != page.url]
        assert len(nav) >= 3, nav
        visited = []
        for href in nav:  # each from the page before it, by the navigation every page shows
            with page.expect_navigation(wait_until="load"):
                found = page.evaluate(
                    """(target) => {
                    const links = document.querySelectorAll("nav.md-nav--primary a.md-nav__link");
                    const link = Array.from(links).find((a) => a.href === target);
                    if (link) link.click();
                    return !!link; }""",
                    href,
                )
                assert found, f"{page.url}: no navigation link to {href}"
            assert page.url.split("#")[0] == href.split("#")[0], f"{href} opened {page.url}"
            assert page.url.startswith("file://") and page.url.split("#")[0].endswith(".html"), page.url
            assert page.locator(".md-content h1").count() == 1, f"{href}: {page.url} shows no page"
            header = page.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
            assert header in ("sticky", "fixed"), f"{page.url}: the theme's stylesheet did not load"
            if page.locator("article math").count():
                fonts = page.evaluate(
                    "document.fonts.ready.then(() => Array.from(document.fonts).map((f) => f.family + ':' + f.status))"
                )
                assert any("Noto Sans Math" in f and f.endswith(":loaded") for f in fonts), f"{page.url}: {fonts}"
            visited.append(Path(unquote(urlsplit(page.url).path)).name)

        box = page.locator("input.md-search__input")  # on the last page the navigation opened
        box.click()
        box.press_sequentially("softmax", delay=20)
        page.wait_for_function(
            "() => /matching/i.test(document.querySelector('.md-search-result__meta').textContent)", timeout=15_000
        )
        first = page.locator(".md-search-result__item > a").first
        href = first.get_attribute("href")
        first.click()
        page.wait_for_load_state("load")
        landed = Path(unquote(urlsplit(page.url).path))
        assert landed.is_file() and landed.suffix == ".html", f"the search result {href} opened {page.url}"
        assert page.locator(".md-content h1").count() == 1
        foreign = sorted({url for url in requests if not url.startswith(LOCAL)})
        assert foreign == [], f"the offline build fetched {foreign}"
        assert errors == [], errors
        print(
            f"\nfrom disk: {len(visited)} pages opened one after another from the navigation; "
            f"search 'softmax' opened {landed.name}; {len(requests)} requests, all file://"
        )
    finally:
        context.close()


def test_the_offered_zip_is_the_offline_build_and_is_reproducible(offline, site, tmp_path):
    offered = site.dir / OFFLINE_ZIP
    again = tmp_path / "again.zip"
    write_offline_zip(offline, again)
    assert offered.read_bytes() == again.read_bytes(), "the zip is not the same bytes when made again"
    files = sorted(p.relative_to(offline).as_posix() for p in offline.rglob("*") if p.is_file())
    with zipfile.ZipFile(offered) as archive:
        names = archive.namelist()
        assert names == [f"attention-computed/{f}" for f in files]
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert archive.read("attention-computed/index.html") == (offline / "index.html").read_bytes()
        assert archive.testzip() is None
    print(f"\n{OFFLINE_ZIP}: {len(names)} files, {offered.stat().st_size:,} bytes")


def test_the_zip_refuses_what_is_not_a_site(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit, match="no index.html"):
        write_offline_zip(tmp_path / "empty", tmp_path / "x.zip")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<p>x</p>")
    with pytest.raises(SystemExit, match="inside the folder"):
        write_offline_zip(tmp_path / "site", tmp_path / "site" / "downloads" / "x.zip")


def test_the_search_shim_is_the_npm_packages_file_served_by_the_site(offline):
    vendored = ROOT / "docs" / "assets" / "vendor" / "iframe-worker"
    package = NODE_MODULES / "iframe-worker"
    assert package.is_dir(), f"{package} is missing: run `make browser` (npm ci in tests/gates) first"
    assert (vendored / "shim.js").read_bytes() == (package / "shim" / "index.js").read_bytes()
    assert (vendored / "LICENSE.txt").read_bytes() == (package / "LICENSE").read_bytes()
    html = (offline / "index.html").read_text(encoding="utf-8")
    assert '<script src="assets/vendor/iframe-worker/shim.js">' in html
    assert "unpkg" not in html


def test_a_remote_polyfill_is_replaced_by_the_sites_copy():
    import sys

    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        from offline import local_polyfills
    finally:
        sys.path.remove(str(ROOT / "hooks"))
    assert local_polyfills(
        [
            "https://unpkg.com/iframe-worker/shim",
            "//cdn.example/iframe-worker.js",
            "assets/local.js",
            "https://cdn.example/other.js",
        ]
    ) == [
        "assets/vendor/iframe-worker/shim.js",
        "assets/vendor/iframe-worker/shim.js",
        "assets/local.js",
        "https://cdn.example/other.js",
    ]
