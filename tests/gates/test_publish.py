"""Publishing: the site as `make publish` builds it, served under a sub-path as GitHub Pages serves a
project (``/some-prefix/``, from sitekit.TEST_SITE_URL).

- every page describes itself: a meta description of its own (written pages: the ``description:``
  of their front matter, one sentence), Open Graph title, description and URL, and a canonical link,
  all at the address SITE_URL gave the build;
- the sitemap lists every page at that address (test_build.py compares it with the pages);
- the 404 page, served for any missing path at any depth, loads its stylesheets, scripts, logo and
  favicon from the site's sub-path, is styled, and its search finds pages;
- the site's own favicon and logo; the footer offers the attn wheel and the offline zip;
- the theme files copied from Material differ from the installed theme only where they say.

The tour of every page (test_browser.py) already runs under the sub-path.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from htmlscan import parse_html
from sitekit import OFFLINE_ZIP, PUBLISH_ENV, ROOT, SITE_PREFIX, TEST_SITE_URL, front_matter, mkdocs_config

pytestmark = pytest.mark.slow

DOCS = ROOT / "docs"
MAX_DESCRIPTION = 170  # characters; search engines show about 160


def description_problems(path: Path) -> list[str]:
    """What is wrong with the description a Markdown page states in its front matter."""
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    meta = front_matter(path)
    if meta is None:
        return [f"{where}: no YAML front matter at the top of the file (---\\ndescription: ...\\n---)"]
    description = meta.get("description") if isinstance(meta, dict) else None
    if not isinstance(description, str) or not description.strip():
        return [f"{where}: the front matter has no description: one sentence saying what the page teaches"]
    problems = []
    if len(description) > MAX_DESCRIPTION:
        problems.append(f"{where}: the description is {len(description)} characters (at most {MAX_DESCRIPTION})")
    if not description.endswith("."):
        problems.append(f"{where}: the description is not a sentence ending with a full stop")
    if re.search(r"[.!?]\s+[A-Z]", description):
        problems.append(f"{where}: the description is more than one sentence")
    if "\n" in description.strip() or re.search(r"[<>\"]", description):
        problems.append(f"{where}: the description spans lines or holds <, > or a double quote")
    return problems


def test_every_markdown_page_states_its_description():
    pages = sorted(DOCS.rglob("*.md"))
    assert pages
    problems = [p for page in pages for p in description_problems(page)]
    assert problems == [], "\n".join(problems)
    descriptions = [front_matter(page)["description"] for page in pages]
    assert len(set(descriptions)) == len(descriptions), "two pages share a description"


def test_the_description_check_reads_front_matter_strictly(tmp_path):
    cases = {
        "none.md": ("# Title\n", "no YAML front matter"),
        "empty.md": ("---\ntitle: x\n---\n# T\n", "has no description"),
        "two.md": ("---\ndescription: One sentence. Another one.\n---\n", "more than one sentence"),
        "stop.md": ("---\ndescription: No full stop\n---\n", "not a sentence"),
        "long.md": ("---\ndescription: " + "word " * 40 + "end.\n---\n", "characters"),
        "ok.md": ("---\ndescription: 'Scores: softmax, and the weighted sum.'\n---\n# T\n", None),
    }
    for name, (text, expected) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        problems = description_problems(path)
        assert (problems == []) if expected is None else any(expected in p for p in problems), (name, problems)


def _head(html: str) -> dict[str, str | None]:
    parsed = parse_html(html)
    found: dict[str, str | None] = {}
    for tag in parsed.tags:
        if tag.name == "meta":
            key = tag.attrs.get("name") or tag.attrs.get("property")
            if key and key not in found:
                found[key] = tag.attrs.get("content")
        elif tag.name == "link" and (tag.attrs.get("rel") or "") in ("canonical", "icon"):
            found.setdefault(f"link:{tag.attrs['rel']}", tag.attrs.get("href"))
    return found


def test_every_page_has_its_own_description_open_graph_tags_and_canonical_url(site):
    site_description = mkdocs_config().get("site_description")
    problems, seen = [], {}
    for page in site.pages:
        head = _head(site.html(page))
        where = page or "/"
        url = TEST_SITE_URL + page
        description = head.get("description")
        if not description or description == site_description:
            problems.append(f"{where}: no description of its own ({description!r})")
        elif description in seen:
            problems.append(f"{where}: the same description as {seen[description] or '/'}")
        else:
            seen[description] = page
        expected = {
            "og:description": description,
            "og:url": url,
            "link:canonical": url,
            "og:type": "website",
            "og:site_name": mkdocs_config().get("site_name"),
        }
        for key, value in expected.items():
            if head.get(key) != value:
                problems.append(f"{where}: {key} is {head.get(key)!r}, expected {value!r}")
        if not head.get("og:title"):
            problems.append(f"{where}: no og:title")
        source = DOCS / (("index" if page == "" else page.rstrip("/")) + ".md")
        if source.is_file() and description != front_matter(source)["description"]:
            problems.append(f"{where}: the description is not the one {source.relative_to(ROOT)} states")
    assert problems == [], "\n".join(problems)
    print(
        f"\n{len(site.pages)} pages, each with its own description, Open Graph tags and canonical URL "
        f"under {TEST_SITE_URL}"
    )


def test_the_sitemap_gives_every_page_at_the_published_address(site):
    tree = ET.parse(site.dir / "sitemap.xml")
    locs = [loc.text.strip() for loc in tree.getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert sorted(locs) == sorted(TEST_SITE_URL + page for page in site.pages)
    assert "<lastmod>" not in (site.dir / "sitemap.xml").read_text(encoding="utf-8"), (
        "a build date is not a change date"
    )


def test_site_url_and_repo_url_come_from_the_environment_with_defaults():
    """mkdocs.yml reads SITE_URL and REPO_URL; without them, a GitHub Pages project address."""
    import os

    from mkdocs.config import load_config

    saved = {k: os.environ.pop(k, None) for k in ("SITE_URL", "REPO_URL")}
    try:
        default = load_config(str(ROOT / "mkdocs.yml"))
        os.environ.update({"SITE_URL": "https://fork.example/elsewhere/", "REPO_URL": "https://github.com/fork/repo"})
        override = load_config(str(ROOT / "mkdocs.yml"))
    finally:
        for key, value in saved.items():
            os.environ.pop(key, None)
            if value is not None:
                os.environ[key] = value
    assert re.fullmatch(r"https://[\w-]+\.github\.io/[\w.-]+/", default["site_url"]), default["site_url"]
    assert default["repo_url"].startswith("https://github.com/")
    assert (override["site_url"], override["repo_url"]) == (
        "https://fork.example/elsewhere/",
        "https://github.com/fork/repo",
    )


def test_the_favicon_and_the_logo_are_the_sites_own_svgs(site):
    for name in ("favicon.svg", "logo.svg"):
        svg = (DOCS / "assets" / name).read_text(encoding="utf-8")
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox"), name
        assert not re.search(r"(?:href|src)\s*=|url\(|@import|<script|<image", svg), (
            f"{name} refers to something outside it"
        )
    problems = []
    for page in site.pages:
        html = site.html(page)
        icon = _head(html).get("link:icon")
        logos = [t.attrs.get("src") for t in parse_html(html).tags if t.name == "img" and t.attrs.get("alt") == "logo"]
        if not icon or urljoin(TEST_SITE_URL + page, icon) != TEST_SITE_URL + "assets/favicon.svg":
            problems.append(f"{page or '/'}: favicon {icon!r}")
        if not any(src and urljoin(TEST_SITE_URL + page, src) == TEST_SITE_URL + "assets/logo.svg" for src in logos):
            problems.append(f"{page or '/'}: logo {logos!r}")
    assert problems == [], "\n".join(problems)


def test_the_footer_offers_the_wheel_and_the_offline_zip(site):
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.MULTILINE)[1]
    wheel = f"downloads/attn-{version}-py3-none-any.whl"
    assert (site.dir / wheel).is_file() and (site.dir / OFFLINE_ZIP).is_file()
    problems = []
    for page in site.pages:
        links = {
            urljoin(TEST_SITE_URL + page, t.attrs["href"])
            for t in parse_html(site.html(page)).tags
            if t.name == "a" and t.attrs.get("href") and "download" in t.attrs
        }
        for target in (wheel, OFFLINE_ZIP):
            if TEST_SITE_URL + target not in links:
                problems.append(f"{page or '/'}: no download link to {target}")
    assert problems == [], "\n".join(problems)
    print(f"\nevery page offers {wheel} and {OFFLINE_ZIP}")


def test_the_repository_link_asks_no_api(site):
    """Material fetches stars and forks from api.github.com for a [data-md-component=source] link."""
    html = site.html("")
    assert f'href="{PUBLISH_ENV["REPO_URL"]}"' in html
    assert 'data-md-component="source"' not in html


@pytest.mark.parametrize(
    "override, marker",
    [
        ("partials/source.html", ' data-md-component="source"'),
        ("partials/copyright.html", None),
    ],
)
def test_the_copied_theme_files_differ_from_materials_only_where_they_say(override, marker):
    import material

    original = (Path(material.__file__).parent / "templates" / override).read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / override).read_text(encoding="utf-8")
    header = re.compile(r"^\{#-.*?-#\}\n", re.DOTALL)
    original, ours = header.sub("", original), header.sub("", ours)
    if marker:  # ours lacks one attribute
        assert ours == original.replace(marker, "", 1)
    else:  # ours adds one block between two "downloads" comments
        added = re.compile(r"  \{#- downloads -#\}\n.*?\{#- downloads -#\}\n", re.DOTALL)
        assert len(added.findall(ours)) == 1
        assert added.sub("", ours) == original


# -- the 404 page under the sub-path ---------------------------------------------------------------


@pytest.mark.browser
def test_the_404_page_is_styled_and_searchable_under_the_sub_path(browser, server):
    missing = "no/such/page/"  # deeper than any page: the 404 page must not link relatively
    home = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = home.new_page()
        page.goto(server.url, wait_until="load")
        styled = page.evaluate("getComputedStyle(document.querySelector('.md-header')).backgroundColor")
    finally:
        home.close()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    requests, failed, errors = [], [], []
    try:
        context.on("request", lambda r: requests.append(r.url))
        context.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))
        context.on(
            "response",
            lambda r: (
                failed.append(f"{r.url} (HTTP {r.status})")
                if r.status >= 400 and r.url != server.url + missing
                else None
            ),
        )
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
        response = page.goto(server.url + missing, wait_until="networkidle")
        assert response.status == 404
        assert "404" in page.locator("article").inner_text()
        header = page.evaluate("getComputedStyle(document.querySelector('.md-header')).backgroundColor")
        logo = page.evaluate(
            "(() => { const r = document.querySelector('.md-logo img').getBoundingClientRect(); "
            "return [r.width, r.height]; })()"
        )
        assert header == styled != "rgba(0, 0, 0, 0)", f"the 404 page's header is {header}, the home page's {styled}"
        assert 0 < logo[1] <= 48, f"the logo is {logo[0]}x{logo[1]} px: the theme's stylesheet did not load"
        assert all(urlsplit(url).path.startswith(SITE_PREFIX) for url in requests if url.startswith("http")), [
            url for url in requests if not urlsplit(url).path.startswith(SITE_PREFIX)
        ]
        assert failed == [] and errors == [], failed + errors
        box = page.locator("input.md-search__input")
        box.click()
        box.press_sequentially("softmax", delay=20)
        page.wait_for_function("() => /matching/i.test(document.querySelector('.md-search-result__meta').textContent)")
        first = page.locator(".md-search-result__item > a").first
        href = first.get_attribute("href")
        assert server.page_of(urljoin(page.url, href)) is not None, f"a search result leaves the site: {href}"
        first.click()
        page.wait_for_load_state("load")
        assert page.locator(".md-content h1").count() == 1 and server.page_of(page.url) is not None, page.url
        print(
            f"\n404 at {missing}: styled, {len(requests)} requests under {SITE_PREFIX}; "
            f"search led to {server.page_of(page.url)}"
        )
    finally:
        context.close()


def test_generated_pages_are_described_from_the_page_they_come_from():
    import importlib.util
    from types import SimpleNamespace

    spec = importlib.util.spec_from_file_location("pagemeta_hook", ROOT / "hooks" / "pagemeta.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = SimpleNamespace(page=SimpleNamespace(title="02 One head by hand"))
    files = SimpleNamespace(get_file_from_path=lambda path: page if path == "02-one-head-by-hand.md" else None)
    assert "“02 One head by hand”" in hook.generated_description("notebooks/02-one-head-by-hand.ipynb", files)
    assert hook.generated_description("notebooks/99-missing.ipynb", files) is None
    assert hook.generated_description("verification.md", files) == hook.VERIFICATION_DESCRIPTION
    assert hook.generated_description("10-training.md", files) is None  # a written page states its own


def test_every_page_has_its_own_social_card(site):
    """og:image names a 1200 x 630 PNG drawn for the page (hooks/socialcard.py), at the published address."""
    from PIL import Image

    problems, cards = [], set()
    for page in site.pages:
        head = _head(site.html(page))
        where, image = page or "/", head.get("og:image") or ""
        if not image.startswith(TEST_SITE_URL + "assets/social/") or not image.endswith(".png"):
            problems.append(f"{where}: og:image is {image!r}")
            continue
        path = site.dir / image[len(TEST_SITE_URL) :]
        if not path.is_file():
            problems.append(f"{where}: {image} is not in the site")
            continue
        with Image.open(path) as card:
            if card.format != "PNG" or card.size != (1200, 630):
                problems.append(f"{where}: {image} is a {card.format} of {card.size}")
        if head.get("twitter:card") != "summary_large_image":
            problems.append(f"{where}: twitter:card is {head.get('twitter:card')!r}")
        cards.add(path.read_bytes())
    assert problems == [], "\n".join(problems)
    assert len(cards) == len(site.pages), "two pages share one card"
    print(f"\n{len(cards)} social cards, one per page")


def test_edit_this_page_only_where_the_page_has_a_source(site):
    """The "Edit this page" link opens the page's Markdown in the repository; the generated pages
    (the verification page, the notebooks) have no such source and no such link."""
    repo = PUBLISH_ENV["REPO_URL"]  # the address the test builds are told the repository has
    problems, linked = [], 0
    for page in site.pages:
        edits = [
            t.attrs.get("href")
            for t in parse_html(site.html(page)).tags
            if t.name == "a" and t.attrs.get("rel") == "edit"
        ]
        source = DOCS / (("index" if page == "" else page.rstrip("/")) + ".md")
        if source.is_file():
            expected = f"{repo.rstrip('/')}/edit/main/docs/{source.relative_to(DOCS).as_posix()}"
            if edits != [expected]:
                problems.append(f"{page or '/'}: edit links {edits}, expected [{expected!r}]")
            linked += 1
        elif edits:
            problems.append(f"{page or '/'} is generated, but links to {edits}")
    assert problems == [], "\n".join(problems)
    assert linked and linked < len(site.pages), "no page with a source, or no generated one: the check checks nothing"
    print(f"\n{linked} pages link to their source; {len(site.pages) - linked} generated pages do not")
