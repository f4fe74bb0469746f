"""The same sources build under ProperDocs (a maintained fork of MkDocs 1.6) with the same pages.

ProperDocs 1.6.7 (pinned) builds the project as it stands, strictly, with the same plugins, hooks,
Markdown extensions and environment as the session's MkDocs build. Every content page (each HTML
page of the MkDocs build that comes from a Markdown page or a notebook) must be byte for byte the
same HTML in both, once the generator tag (which names the builder) is set aside and so is what a
build measures live (timings differ from build to build by design). Both builds check every
number, so the ProperDocs build passing is itself a check that the snipcheck plugin runs there.

A separate make target (`make properdocs`, run by CI after `make test`): it costs one more build.
"""

from __future__ import annotations

import re

import pytest
from sitekit import mkdocs_build, strip_live

pytestmark = [pytest.mark.slow, pytest.mark.builders]

GENERATOR = re.compile(r'<meta name="generator" content="[^"]*">')


def content_pages(site_dir) -> list[str]:
    """The HTML pages made from Markdown pages or notebooks: every index.html but the 404 page and
    the files under assets/."""
    return sorted(
        p.relative_to(site_dir).as_posix()
        for p in site_dir.rglob("*.html")
        if p.name != "404.html" and not p.relative_to(site_dir).as_posix().startswith("assets/")
    )


def comparable(html: str) -> str:
    return strip_live(GENERATOR.sub('<meta name="generator">', html))


def test_properdocs_builds_the_same_content_pages_as_mkdocs(site_build, tmp_path):
    assert site_build.ok, site_build.log[-4000:]
    run = mkdocs_build(site_build.project, tmp_path / "site", builder="properdocs")
    assert run.ok, f"properdocs build failed (exit {run.returncode}):\n{run.log[-6000:]}"
    ran, cached = run.snippet_stats()
    pages = content_pages(site_build.site_dir)
    assert len(pages) >= 10 and "index.html" in pages
    assert content_pages(run.site_dir) == pages, "the two builds made different pages"
    generators = set()
    differ = []
    for page in pages:
        ours, theirs = (d / page for d in (site_build.site_dir, run.site_dir))
        a, b = ours.read_text(encoding="utf-8"), theirs.read_text(encoding="utf-8")
        generators |= set(GENERATOR.findall(b))
        if comparable(a) != comparable(b):
            differ.append(page)
    assert differ == [], f"{len(differ)} page(s) differ between MkDocs and ProperDocs: {differ[:10]}"
    assert any("properdocs" in g.lower() for g in generators), generators  # it really was ProperDocs
    print(
        f"\nProperDocs: {len(pages)} content pages identical to MkDocs' (generator tag and live values "
        f"aside); its build took {run.seconds:.1f} s ({ran} snippets run, {cached} from cache)"
    )
