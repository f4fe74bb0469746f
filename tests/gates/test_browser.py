"""The built site in a real browser (Debian's Chromium): every page, as a reader would see it.

The pages come from the built site (every page reachable from the home page), so new sections are
covered as soon as they exist. One tour visits them all (see browsertour.py); each test below
asserts one property over every page and lists every page that fails it.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urljoin, urlsplit

import pytest
from sitekit import ROOT, mkdocs_config

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Raw LaTeX that would mean a formula reached the reader unconverted.
RAW_TEX = re.compile(
    r"\$\$|\\\(|\\\)|\\\[|\\\]|\\(?:frac|sqrt|mathrm|mathbf|left|right|top|cdot|sum|begin|end|text|"
    r"qquad|quad|times|log|exp|max|min|in|le|ge|approx|alpha|beta|sigma|mu)\b|\$[^$\s][^$\n]*[\\^_{}][^$\n]*\$"
)
# What pymdownx.arithmatex reads as a formula, to count the formulas a page's Markdown holds.
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.DOTALL)
# An environment (\begin{...}) is a block of its own only where it starts a line; inside $...$ it
# is part of that inline formula.
_BLOCK_MATH = re.compile(
    r"(?<!\\)\$\$.+?(?<!\\)\$\$|\\\[.+?\\\]|^[ \t]*\\begin\{(\w+\*?)\}.+?\\end\{\1\}", re.DOTALL | re.MULTILINE
)
_INLINE_MATH = re.compile(r"(?<!\\)\$(?!\s)((?:\\.|[^\\$])+?)(?<!\s)\$|\\\(.+?\\\)", re.DOTALL)


def formulas_in_markdown(text: str) -> int:
    """How many formulas (block and inline) a page's Markdown holds, outside code."""
    kept, fence = [], None
    for line in text.splitlines():
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            continue
        if fence is not None:
            if line.strip().startswith(fence[0] * len(fence)) and set(line.strip()) == {fence[0]}:
                fence = None
            continue
        kept.append(line)
    prose = _CODE_SPAN.sub(" ", "\n".join(kept))
    blocks = len(_BLOCK_MATH.findall(prose))
    prose = _BLOCK_MATH.sub(" ", prose)
    return blocks + len(_INLINE_MATH.findall(prose))


def markdown_source(page: str):
    """The Markdown file a page was built from, or None for a generated page."""
    docs = ROOT / mkdocs_config().get("docs_dir", "docs")
    stem = page.strip("/") or "index"
    for candidate in (docs / f"{stem}.md", docs / stem / "index.md", docs / f"{stem}/README.md"):
        if candidate.is_file():
            return candidate
    return None


def _report(failures: list[str], what: str) -> str:
    return f"{len(failures)} {what}:\n" + "\n".join(failures)


def test_every_page_loads_without_console_errors(tour):
    failures = [f"{v.page or '/'}: {e}" for v in tour.visits for e in v.console_errors]
    assert failures == [], _report(failures, "console errors")
    print(f"\n{len(tour.visits)} pages visited (desktop light, desktop dark, phone): no console error")


def test_no_page_violates_its_content_security_policy(tour):
    """Every page's policy (hooks/csp.py) holds: nothing it refuses was tried, in any view."""
    failures = [f"{v.page or '/'}: {e}" for v in tour.visits for e in v.csp_violations]
    assert failures == [], _report(failures, "Content-Security-Policy violations")
    print(f"\n{len(tour.visits)} pages: no Content-Security-Policy violation")


def test_a_policy_violation_is_caught_by_the_tour(browser, server):
    """The tour's record sees a violation: an inline script no page has, and an image from another
    host, put into a real page. The browser refuses both, and the record names both."""
    from browsertour import csp_violations, watch_csp

    context = browser.new_context()
    try:
        watch_csp(context)
        host = urlsplit(server.url).netloc
        context.route(
            "**/*",
            lambda route: (
                route.continue_() if urlsplit(route.request.url).netloc == host else route.abort("blockedbyclient")
            ),
        )
        page = context.new_page()
        page.goto(server.url, wait_until="load")
        assert csp_violations(page) == [], "the home page itself violates its policy"
        page.evaluate("""() => { const s = document.createElement("script"); s.textContent = "window.injected = true;";
                                 document.body.appendChild(s);
                                 const img = document.createElement("img"); img.src = "https://other.example/x.png";
                                 document.body.appendChild(img); }""")
        page.wait_for_function("() => window.__cspViolations.length >= 2", timeout=5_000)
        found = csp_violations(page)
        assert page.evaluate("window.injected === undefined"), "the injected inline script ran"
        assert any(v.startswith("script-src") and "inline" in v for v in found), found
        assert any(v.startswith("img-src") and "other.example" in v for v in found), found
    finally:
        context.close()


def test_instant_navigation_keeps_the_page_and_pages_with_their_own_scripts_load_whole(browser, server, site):
    """A link between written pages swaps the content without reloading (Material's instant
    navigation, online only), the site's script runs again there, and nothing breaks the policy;
    a link to the verification page loads it whole, and its filter works."""
    from browsertour import csp_violations, watch_csp

    pages = [p for p in site.pages if markdown_source(p) is not None and p.strip("/")]
    if "verification/" not in site.pages or not pages:
        pytest.skip("no verification page or no written page yet")
    from sitekit import TEST_SITE_URL

    def sitemap_here(route) -> None:
        """The sitemap as the published site serves it: its addresses are the site's own. (Material
        navigates instantly only to a page the sitemap lists, taking from the page only the host,
        so under the test server's port it would list none.)"""
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace(TEST_SITE_URL, server.url))

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        watch_csp(context)
        context.route("**/sitemap.xml", sitemap_here)
        page = context.new_page()
        page.goto(server.url, wait_until="networkidle")
        page.evaluate("window.__sameDocument = true")
        target = pages[0].strip("/")
        page.locator(f'a[href$="{target}/"]:visible').first.click()
        page.wait_for_url(re.compile(re.escape(target) + "/$"), timeout=10_000)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__sameDocument === true"), f"the link to {target} reloaded the whole page"
        assert page.locator("article h1").count() == 1
        assert csp_violations(page) == []
        page.locator('a[href$="verification/"]:visible').first.click()
        page.wait_for_url(re.compile(r"verification/$"), timeout=10_000)
        page.wait_for_load_state("load")
        assert page.evaluate("window.__sameDocument === undefined"), "the verification page was swapped in, not loaded"
        box = page.locator("#snipcheck-filter")
        if box.count():
            box.fill("0.")
            page.wait_for_function(
                "() => document.getElementById('snipcheck-count').textContent.length > 0", timeout=5_000
            )
        assert csp_violations(page) == []
        print(f"\ninstant navigation to {target} (same document); the verification page loaded whole, its filter works")
    finally:
        context.close()


def test_no_request_fails(tour):
    failures = [f"{v.page or '/'}: {f}" for v in tour.visits for f in v.failed]
    assert failures == [], _report(failures, "failed requests")


def test_no_request_leaves_the_local_server(tour):
    requests = [(v.page, url) for v in tour.visits for url in v.requests]
    foreign = sorted(
        {
            f"{page or '/'}: {url}"
            for page, url in requests
            if not url.startswith(("data:", "blob:", "about:")) and urlsplit(url).netloc != tour.host
        }
    )
    assert requests, "no request was recorded at all"
    assert foreign == [], _report(foreign, "requests to another host")
    hosts = {urlsplit(url).netloc for _, url in requests}
    print(f"\n{len(requests)} requests seen over {len(tour.visits)} pages, all to {', '.join(sorted(hosts))}")


def test_every_image_decodes(tour):
    failures = [
        f"{v.page or '/'}: {img['src']} (naturalWidth {img['width']}, {img['error'] or 'no error'})"
        for v in tour.visits
        for img in v.images
        if not img["width"] or not img["height"]
    ]
    assert failures == [], _report(failures, "images that do not decode")
    figures = sum(1 for v in tour.visits for img in v.images if "figures/" in (img["src"] or ""))
    print(f"\n{sum(len(v.images) for v in tour.visits)} images decoded, {figures} of them snippet figures")


def test_every_formula_renders_as_mathml(tour):
    failures = []
    total = 0
    for v in tour.visits:
        where = v.page or "/"
        raw = sorted({m.group() for m in RAW_TEX.finditer(v.prose)})
        if raw:
            context = [
                v.prose[max(0, m.start() - 40) : m.end() + 40].replace("\n", " ") for m in RAW_TEX.finditer(v.prose)
            ]
            failures.append(f"{where}: raw LaTeX visible {raw}, e.g. …{context[0]}…")
        for m in v.math:
            if m["errors"]:
                failures.append(f"{where}: formula {m['label']!r} has a MathML error node")
            if m["visible"] and (m["width"] <= 0 or m["height"] <= 0):
                failures.append(f"{where}: formula {m['label']!r} is not laid out ({m['width']}x{m['height']})")
        source = markdown_source(v.page)
        if source is not None:
            expected = formulas_in_markdown(source.read_text(encoding="utf-8"))
            if len(v.math) < expected:
                failures.append(
                    f"{where}: {source.name} holds {expected} formulas, the page shows {len(v.math)} "
                    "MathML <math> elements"
                )
        total += len(v.math)
    assert failures == [], _report(failures, "formula problems")
    print(f"\n{total} formulas rendered as MathML, no raw LaTeX on {len(tour.visits)} pages")


def test_the_formula_counter_reads_markdown_as_arithmatex_does():
    text = (
        "A $x$ and $$\ny\n$$ and `$not$` and \\$5 and $ not $ and \\(z\\).\n"
        "```\n$code$\n```\n    ```py\n    $c$\n    ```\n"
    )
    assert formulas_in_markdown(text) == 3


def test_every_code_block_has_a_copy_button(tour):
    failures = [
        f"{v.page or '/'}: code block {c['id'] or c['text']!r} has no copy button"
        for v in tour.visits
        for c in v.code
        if not c["copy"]
    ]
    blocks = sum(len(v.code) for v in tour.visits)
    assert blocks > 0, "no code block on the whole site"
    assert failures == [], _report(failures, "code blocks without a copy button")
    print(f"\n{blocks} code blocks, each with a copy button")


def test_the_palette_toggle_switches_to_dark_and_figures_stay_on_white(tour):
    failures = []
    figures = 0
    for v in tour.visits:
        where = v.page or "/"
        if (v.scheme_before, v.scheme_after) != ("default", "slate"):
            failures.append(
                f"{where}: the toggle went from {v.scheme_before!r} to {v.scheme_after!r}, not default -> slate"
            )
        for fig in v.figures_dark:
            figures += 1
            rgba = [float(x) for x in re.findall(r"[\d.]+", fig["background"])]
            r, g, b = rgba[:3] if len(rgba) >= 3 else (0, 0, 0)
            alpha = rgba[3] if len(rgba) == 4 else 1.0
            if alpha < 1 or min(r, g, b) < 240 or float(fig["opacity"]) < 1:
                failures.append(
                    f"{where}: figure {fig['src']} sits on {fig['background']} (opacity {fig['opacity']}) "
                    "in dark mode: it needs an opaque light background"
                )
    assert failures == [], _report(failures, "palette problems")
    print(f"\npalette toggled on {len(tour.visits)} pages; {figures} figures on an opaque light card in dark mode")


def test_no_page_scrolls_sideways_on_a_phone(tour):
    failures = [
        f"{v.page or '/'}: {v.phone_overflow['scroll']} px wide in a {v.phone_overflow['client']} px viewport; "
        f"too wide: {v.phone_overflow['wide']}"
        for v in tour.visits
        if v.phone_overflow["scroll"] > v.phone_overflow["client"] + 1
    ]
    assert failures == [], _report(failures, "pages wider than a phone")


def test_on_a_phone_every_code_line_wraps_within_its_block(tour):
    """A line that ran off the screen would hide its end (a shape comment, most often) from a
    reader who does not scroll sideways: hooks/codewrap.py and extra.css wrap it. Code in closed
    folds is not drawn, so not measured; the notebook pages (mkdocs-jupyter's) write no
    ``pre > code``."""
    failures = [f"{v.page or '/'}: {clipped}" for v in tour.visits for clipped in v.phone_overflow["clipped_code"]]
    assert failures == [], _report(failures, "code lines wider than a phone")


def test_screenshots_of_every_page_at_desktop_and_phone_width(tour):
    missing = [str(p) for v in tour.visits for p in v.screenshots if not p.is_file() or p.stat().st_size == 0]
    assert missing == []
    names = {p.name for v in tour.visits for p in v.screenshots}
    assert len(names) == 3 * len(tour.visits), "two pages share a screenshot name"
    print(f"\n{len(names)} screenshots in {tour.visits[0].screenshots[0].parent.relative_to(ROOT)}")


# -- search -------------------------------------------------------------------------------------------

# Query -> the pages whose section teaches it (the first result must be one of them). A page that
# is not written yet (absent, or a stub) makes its query skip, saying so; it runs once the page exists.
SEARCHES = {
    "softmax": ["02-one-head-by-hand/", "03-queries-keys-values/"],
    "causal mask": ["07-full-block/"],
    "positional encoding": ["06-position/"],
}
STUB_WORDS = 120  # a page with fewer words than this is a placeholder


def _written_pages(site) -> dict[str, int]:
    """Page -> number of words the search index holds for it (all its sections)."""
    index = json.loads((site.dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    words: dict[str, int] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#", 1)[0]
        words[page] = words.get(page, 0) + len(re.findall(r"\w+", re.sub(r"<[^>]+>", " ", doc.get("text", ""))))
    return words


def _settled_results(page, timeout_s: float = 15.0) -> list[str]:
    """The result links once the search has answered the whole query and stopped changing."""
    page.wait_for_function(
        """() => {
        const meta = document.querySelector(".md-search-result__meta");
        return meta && /matching/i.test(meta.textContent);
    }""",
        timeout=timeout_s * 1000,
    )
    read = """() => Array.from(document.querySelectorAll(".md-search-result__item > a"))
                  .map((a) => a.getAttribute("href"))"""
    previous = None
    for _ in range(int(timeout_s / 0.25)):
        links = page.evaluate(read)
        if links == previous:
            return links
        previous = links
        page.wait_for_timeout(250)
    return previous or []


@pytest.mark.parametrize("query", sorted(SEARCHES))
def test_search_lands_on_the_page_that_teaches_it(query, browser, server, site):
    expected = SEARCHES[query]
    words = _written_pages(site)
    written = [p for p in expected if words.get(p, 0) >= STUB_WORDS]
    if not written:
        pytest.skip(
            f"{' / '.join(expected)} not written yet ({', '.join(f'{p}: {words.get(p, 0)} words' for p in expected)}); "
            f"this search is checked once the page exists"
        )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(server.url, wait_until="networkidle")
        box = page.locator("input.md-search__input")
        box.click()
        box.press_sequentially(query, delay=20)  # Material searches on key events, as a reader types
        links = _settled_results(page)
        assert links, f"searching {query!r} found nothing"
        first = server.page_of(urljoin(server.url, links[0]))
        assert first in expected, (
            f"searching {query!r}: the first result is {first!r}, expected one of {expected} (all: {links[:5]})"
        )
        page.locator(".md-search-result__item > a").first.click()
        page.wait_for_load_state("load")
        landed = server.page_of(page.url)
        assert landed == first, f"clicking the first result for {query!r} landed on {landed!r}"
        print(f"\nsearch {query!r}: first result {first}")
    finally:
        context.close()


# -- notebooks ----------------------------------------------------------------------------------------


def test_a_sections_notebook_downloads(tour, browser):
    """Every notebook link on the site fetches a real notebook that holds the page's code."""
    links = sorted({url for v in tour.visits for url in v.notebook_links})
    if not links:
        pytest.skip("the site has no notebooks yet (no link to an .ipynb on any page)")
    context = browser.new_context()
    try:
        for url in links:
            response = context.request.get(url)
            assert response.ok, f"{url}: HTTP {response.status}"
            data = json.loads(response.body())
            assert data.get("nbformat") == 4, f"{url} is not an nbformat-4 notebook"
            code = [c for c in data["cells"] if c["cell_type"] == "code"]
            assert code and all("".join(c["source"]).strip() for c in code), f"{url} has no code, or an empty code cell"
        print(f"\n{len(links)} notebooks fetched from their download links and read")
    finally:
        context.close()
