"""Helpers shared by the site tests: running MkDocs, copying the project, reading the built site."""

from __future__ import annotations

import importlib.util
import os
import posixpath
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import yaml
from htmlscan import is_remote, parse_html

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
AXE_JS = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
NODE_MODULES = Path(__file__).resolve().parent / "node_modules"
# Every test build is published at a sub-path, as GitHub Pages publishes a project site: the site's
# own pages link relatively, but canonical links, the sitemap and the 404 page depend on it.
TEST_SITE_URL = "https://site.example/some-prefix/"
SITE_PREFIX = urlsplit(TEST_SITE_URL).path


def _makefile_variable(name: str) -> str:
    match = re.search(rf"^{name}\s*:?=\s*(\S+)\s*$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    assert match, f"the Makefile defines no {name}"
    return match[1]


# Where `make publish` puts the zip of the offline build, and what its footer links to.
OFFLINE_ZIP = _makefile_variable("OFFLINE_ZIP")
PUBLISH_ENV = {
    "SITE_URL": TEST_SITE_URL,
    "REPO_URL": "https://github.com/example-readers/attention-computed",
    "OFFLINE_ZIP": OFFLINE_ZIP,
    "OFFLINE": "false",
}
# The determinism check (mkdocs.yml: SNIPCHECK_TWICE): every new snippet result run twice and
# compared, as `make publish` builds.
TWICE_ENV = {"SNIPCHECK_TWICE": "true"}
# The reproducibility check's second build pretends to run on another day (2001-09-09).
ANOTHER_DAY = "1000000000"
# What a copy of the project leaves out: tools, caches, build output.
_TOP_LEVEL_IGNORED = {".git", ".venv", ".cache", "site", "test-artifacts", ".pytest_cache", ".hypothesis"}
_IGNORED_ANYWHERE = shutil.ignore_patterns("node_modules", "__pycache__", "*.egg-info", "*.pyc")
BUILD_TIMEOUT = 900


# -- what a build measured live (timings): differs from build to build by design -------------------

LIVE_OUTPUT = re.compile(r'<div class="[^"]*\blive-output\b[^"]*">.*?</pre>\s*</div>', re.DOTALL)
LIVE_NUMBER = re.compile(r'<span class="live-number"[^>]*>[^<]*</span>')
LIVE_TEXT = re.compile(r"\(measured: [^)]*\)")


def strip_live(html: str) -> str:
    """A page with what this build measured live (live output blocks, the measured part of range
    ties) replaced by placeholders, so two builds can be compared byte for byte."""
    return LIVE_NUMBER.sub('<span class="live-number">(live)</span>', LIVE_OUTPUT.sub("<!-- live output -->", html))


def live_snippets(project: Path) -> set[str]:
    """Snippets some page runs live (they run again in every build)."""
    from snipcheck import parse

    docs = project / mkdocs_config(project).get("docs_dir", "docs")
    return {
        run.snippet
        for file in sorted(docs.rglob("*.md"))
        for run in parse(file.read_text(encoding="utf-8"), file.as_posix()).runs
        if run.live
    }


# -- running MkDocs -----------------------------------------------------------------------------------


@dataclass
class BuildRun:
    """One ``mkdocs build`` as a real subprocess: its exit code, its log and where it wrote."""

    project: Path
    site_dir: Path
    returncode: int
    log: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def snippet_stats(self) -> tuple[int, int]:
        """(snippets run, snippets from cache) as the snipcheck plugin logged them."""
        match = re.search(r"snipcheck: (\d+) snippets run, (\d+) from cache", self.log)
        assert match, f"the build log has no snipcheck summary line:\n{self.log}"
        return int(match[1]), int(match[2])


def mkdocs_build(
    project: Path,
    site_dir: Path,
    *,
    env: dict[str, str] | None = None,
    timeout: float = BUILD_TIMEOUT,
    builder: str = "mkdocs",
) -> BuildRun:
    """``mkdocs build --strict`` of ``project`` into ``site_dir``, as ``make publish`` runs it
    (``PUBLISH_ENV``; ``env`` adds to it or overrides it); ``builder``: another MkDocs-compatible
    builder's module (``properdocs``), run with the same arguments."""
    command = [
        sys.executable,
        "-m",
        builder,
        "build",
        "--strict",
        "-f",
        str(project / "mkdocs.yml"),
        "-d",
        str(site_dir),
    ]
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **PUBLISH_ENV, **(env or {})}
    start = time.monotonic()
    process = subprocess.run(
        command, cwd=project, env=full_env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
    )
    return BuildRun(project, site_dir, process.returncode, process.stdout + process.stderr, time.monotonic() - start)


def offline_build_env(project: Path = ROOT) -> dict[str, str]:
    """The environment ``make offline`` builds with: the variables its recipe sets before mkdocs."""
    recipe = re.search(
        r"^offline:.*\n\t(?P<line>.*)$", (project / "Makefile").read_text(encoding="utf-8"), re.MULTILINE
    )
    assert recipe, "the Makefile has no offline target"
    words = recipe["line"].split()
    env = {}
    for word in words[: next(i for i, w in enumerate(words) if "=" not in w)]:
        name, value = word.split("=", 1)
        env[name] = value
    assert env.get("OFFLINE") == "true", f"make offline does not enable the offline plugin: {recipe['line']}"
    return env


def write_offline_zip(site_dir: Path, zip_path: Path) -> int:
    """The offline build zipped as `make publish` zips it (scripts/offline_zip.py)."""
    spec = importlib.util.spec_from_file_location("offline_zip", ROOT / "scripts" / "offline_zip.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.write_zip(site_dir, zip_path)


def copy_project(dest: Path) -> Path:
    """A copy of the project's sources (no caches, no virtualenv, no build output) at ``dest``."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        ignored = set(_IGNORED_ANYWHERE(folder, names))
        if Path(folder).resolve() == ROOT:
            ignored |= _TOP_LEVEL_IGNORED & set(names)
        return ignored

    shutil.copytree(ROOT, dest, ignore=ignore, symlinks=True)
    return dest


def front_matter(path: Path) -> dict | None:
    """The YAML front matter at the top of a Markdown page, or None if it has none."""
    text = path.read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n", text, re.DOTALL)
    return yaml.safe_load(match[1]) if match else None


class _AnyTagLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without executing its tags (``!ENV``, ``!!python/name:``): they become None."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)
_AnyTagLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def mkdocs_config(project: Path = ROOT) -> dict:
    return yaml.load((project / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_AnyTagLoader) or {}


# -- the built site -----------------------------------------------------------------------------------


@dataclass
class Site:
    """A built site: its folder, its pages (from the sitemap) and helpers to read them."""

    dir: Path
    build: BuildRun
    pages: list[str] = field(default_factory=list)  # paths relative to the site root: "", "02-one-head-by-hand/"
    orphans: list[str] = field(default_factory=list)  # HTML files no link reaches

    def file_for(self, page: str) -> Path:
        """The file a page path is served from."""
        return _file_for(self.dir, page)

    def html(self, page: str) -> str:
        return self.file_for(page).read_text(encoding="utf-8")

    def html_files(self) -> list[Path]:
        return sorted(self.dir.rglob("*.html"))

    def page_of(self, src_uri: str) -> str:
        """The site path of a Markdown source (``02-x.md`` -> ``02-x/``; ``index.md`` -> ``""``)."""
        stem = src_uri[: -len(".md")]
        if stem == "index":
            return ""
        if stem.endswith("/index"):
            return stem[: -len("index")]
        return stem + "/"


def _file_for(site_dir: Path, page: str) -> Path:
    path = site_dir / unquote(page)
    return path / "index.html" if page == "" or page.endswith("/") or path.is_dir() else path


def resolve(page: str, url: str) -> str | None:
    """The site path ``url`` points to from ``page`` (both relative to the site root), or None if
    it leaves the site (another host, another scheme, above the root)."""
    if is_remote(url) or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url):
        return None
    joined = urlsplit(urljoin("http://site.invalid/" + page, url))
    if joined.netloc != "site.invalid":
        return None
    path = posixpath.normpath(joined.path) + ("/" if joined.path.endswith("/") and joined.path != "/" else "")
    if path in ("/", "/."):
        return ""
    return path.lstrip("/") if path.startswith("/") and not path.startswith("/..") else None


def crawl(site_dir: Path) -> tuple[list[str], list[str]]:
    """(pages reachable by links from the home page, HTML files no link reaches).

    The nav, the in-page links and the notebook links are followed, so a page that is not in the
    nav but is linked (a notebook) is found, and a page nothing links to is reported.
    """
    seen: dict[Path, str] = {}
    todo = [""]
    while todo:
        page = todo.pop()
        file = _file_for(site_dir, page)
        if file in seen or not file.is_file() or file.suffix != ".html":
            continue
        seen[file] = page
        for tag, attr, url in parse_html(file.read_text(encoding="utf-8")).links():
            if tag.name != "a" or attr != "href":
                continue
            target = resolve(page, url)
            if target is None:
                continue
            if target and not target.endswith("/") and (site_dir / unquote(target)).is_dir():
                target += "/"
            todo.append(target)
    orphans = sorted(
        str(f.relative_to(site_dir)) for f in site_dir.rglob("*.html") if f not in seen and f.name != "404.html"
    )
    return sorted(seen.values()), orphans


def sitemap_pages(site_dir: Path, site_url: str | None) -> list[str]:
    """Every page the sitemap lists, as a path relative to the site root."""
    tree = ET.parse(site_dir / "sitemap.xml")
    prefix = urlsplit(site_url or "/").path.rstrip("/") + "/"
    pages = []
    for loc in tree.getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc"):
        path = urlsplit((loc.text or "").strip()).path
        if path.startswith(prefix):
            path = path[len(prefix) :]
        pages.append(path.lstrip("/"))
    return pages
