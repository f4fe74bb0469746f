"""Links: every internal link and anchor in the built HTML points at something that was built."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import pytest
from htmlscan import is_remote, parse_html
from sitekit import SITE_PREFIX, resolve

pytestmark = pytest.mark.slow
NOT_FILES = ("mailto:", "tel:", "javascript:", "data:", "blob:", "about:")


def _page_url(site_dir, file) -> str:
    """The URL path (relative to the site root) a built file is served at."""
    rel = file.relative_to(site_dir).as_posix()
    return rel[: -len("index.html")] if rel == "index.html" or rel.endswith("/index.html") else rel


def _target_file(site_dir, path: str):
    target = site_dir / unquote(path)
    if path == "" or path.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target


def test_every_internal_link_and_anchor_resolves(site):
    files = site.html_files()
    parsed = {f: parse_html(f.read_text(encoding="utf-8")) for f in files}
    broken, checked, anchors = [], 0, 0
    for file, page in parsed.items():
        where = file.relative_to(site.dir).as_posix()
        base = _page_url(site.dir, file)
        for tag, attr, url in page.links():
            url = url.strip()
            if not url or is_remote(url) or url.lower().startswith(NOT_FILES):
                continue
            if file.name == "404.html" and url.startswith("/"):
                # The 404 page is served for any path, so it links from the root of its site_url.
                if not url.startswith(SITE_PREFIX):
                    broken.append(
                        f"{where}:{tag.line}: <{tag.name} {attr}={url!r}> is outside the site's path {SITE_PREFIX}"
                    )
                    continue
                url, base = url[len(SITE_PREFIX) :], ""
            checked += 1
            target_path = resolve(base, url)
            if target_path is None:
                broken.append(f"{where}:{tag.line}: <{tag.name} {attr}={url!r}> leaves the site")
                continue
            fragment = unquote(urlsplit(url).fragment)
            target = _target_file(site.dir, target_path)
            if not target.is_file():
                broken.append(f"{where}:{tag.line}: <{tag.name} {attr}={url!r}> -> {target_path or '/'} was not built")
                continue
            if fragment:
                anchors += 1
                if target.suffix != ".html":
                    continue
                ids = parsed[target].ids if target in parsed else parse_html(target.read_text(encoding="utf-8")).ids
                if fragment not in ids:
                    broken.append(
                        f"{where}:{tag.line}: <{tag.name} {attr}={url!r}> -> no id {fragment!r} in "
                        f"{target.relative_to(site.dir).as_posix()}"
                    )
    assert checked > 0
    assert broken == [], f"{len(broken)} broken internal links:\n" + "\n".join(broken)
    print(f"\n{checked} internal links ({anchors} with an anchor) in {len(files)} HTML files: all resolve")


def test_the_link_checker_reports_a_missing_page_and_a_missing_anchor(tmp_path):
    """The checker itself, on a two-page site: a good link, a missing page, a missing anchor."""
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text('<a href="a/#here">ok</a> <a href="b/">gone</a> <a href="a/#nowhere">bad</a>')
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">Here</h2> <img src="../missing.svg">')

    class FakeSite:
        dir = tmp_path

        def html_files(self):
            return sorted(tmp_path.rglob("*.html"))

    with pytest.raises(AssertionError) as failure:
        test_every_internal_link_and_anchor_resolves(FakeSite())
    message = str(failure.value)
    assert "3 broken internal links" in message
    assert "index.html:1: <a href='b/'> -> b/ was not built" in message
    assert "no id 'nowhere' in a/index.html" in message
    assert "a/index.html:1: <img src='../missing.svg'> -> missing.svg was not built" in message
