"""Fixtures for the site's quality gates: the real site built once per session, served on loopback.

Everything is derived from what the build produced (the sitemap, the HTML files), never from a
hand-kept list of pages, because the pages are being written while these tests run.

- ``site_build``: ``mkdocs build --strict`` of the real project into a temporary folder, with the
  project's own ``.cache/snipcheck`` (so it is warm after the first build), configured as
  ``make publish`` configures it (sitekit.PUBLISH_ENV: published at a sub-path); the work that
  needs only the sources (``BESIDE_THE_BUILD``) is started first, so that it runs beside it;
- ``second_clean_build``: test_reproducible.py's other clean build, of a copy of the project without
  its caches, in another folder, as if on another day (a Future);
- ``reader_pythons``: the notebook gate's fresh environments, one per Python (Futures);
- ``offline_build``: the build for reading offline (``make offline``), after the first (warm);
- ``site``: the site as ``make publish`` makes it, the first build with the zip of the offline
  build inside; failing every dependent test with the build log if a build failed;
- ``server``: the site served by the standard library on 127.0.0.1 and a free port, under the
  sub-path of its site_url (``/some-prefix/``), answering any other path with its 404 page, as
  GitHub Pages serves a project;
- ``browser``: Debian's Chromium driven by Playwright (never a downloaded browser).
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from readerenv import READER_PYTHON, TORCH_PYTHON, fresh_environment, pins
from sitekit import (
    ANOTHER_DAY,
    CHROMIUM,
    CHROMIUM_ARGS,
    OFFLINE_ZIP,
    ROOT,
    SITE_PREFIX,
    BuildRun,
    Site,
    copy_project,
    crawl,
    mkdocs_build,
    offline_build_env,
    write_offline_zip,
)

# Session fixtures for work that needs only the sources, not the session's build: each gives
# Futures. When a selected test uses one, the session's build starts it first, to run beside it.
BESIDE_THE_BUILD = ("second_clean_build", "reader_pythons")


def pytest_configure(config):
    config.addinivalue_line("markers", "builders: builds the site with another builder (make properdocs)")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``builders`` run only when asked for by name, ``-m builders`` (make properdocs,
    which CI runs after make test): they cost another whole build."""
    if "builders" in (config.getoption("markexpr", "") or ""):
        return
    kept = [item for item in items if item.get_closest_marker("builders") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


@pytest.fixture(scope="session")
def beside():
    """Threads for the work of ``BESIDE_THE_BUILD``, one per job (a job only waits on subprocesses);
    the session waits for what they run before it ends."""
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="beside") as pool:
        yield pool


@pytest.fixture(scope="session")
def site_build(request, tmp_path_factory) -> BuildRun:
    """The real project, built strictly into a temporary folder (never into the shared site/)."""
    for name in BESIDE_THE_BUILD:
        if any(name in item.fixturenames for item in request.session.items):
            request.getfixturevalue(name)
    return mkdocs_build(ROOT, tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="session")
def second_clean_build(beside, tmp_path_factory) -> Future[BuildRun]:
    """A copy of the project's sources (so no cache) in another folder, built as if on another day."""
    root = tmp_path_factory.mktemp("reproducible")
    project = copy_project(root / "b")
    return beside.submit(mkdocs_build, project, root / "b-site", env={"SOURCE_DATE_EPOCH": ANOTHER_DAY})


@pytest.fixture(scope="session")
def pins_file(tmp_path_factory) -> Path:
    """The constraints file every install in a reader's environment obeys (readerenv.pins)."""
    path = tmp_path_factory.mktemp("pins") / "constraints.txt"
    path.write_text(pins(), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def reader_pythons(beside, pins_file, tmp_path_factory) -> dict[str, Future[Path]]:
    """The notebook gate's fresh environments: {Python version: its interpreter}."""
    return {
        version: beside.submit(fresh_environment, version, tmp_path_factory.mktemp(f"reader-{version}"), pins_file)
        for version in (READER_PYTHON, TORCH_PYTHON)
    }


@pytest.fixture(scope="session")
def offline_build(site_build, tmp_path_factory) -> BuildRun:
    """The build for reading offline, made after the first one so that it reuses its snippet results."""
    return mkdocs_build(ROOT, tmp_path_factory.mktemp("offline") / "site", env=offline_build_env(ROOT))


@pytest.fixture(scope="session")
def site(site_build, offline_build, tmp_path_factory) -> Site:
    for name, run in (("mkdocs build --strict", site_build), ("the offline build", offline_build)):
        if not run.ok:
            pytest.fail(f"{name} failed (exit {run.returncode}):\n{run.log[-6000:]}", pytrace=False)
    # As `make publish` does: the zip of the offline build goes into the site. Into a copy, so that
    # the first build's folder stays what that build wrote (test_reproducible.py compares it).
    published = tmp_path_factory.mktemp("published") / "site"
    shutil.copytree(site_build.site_dir, published)
    write_offline_zip(offline_build.site_dir, published / OFFLINE_ZIP)
    pages, orphans = crawl(published)
    return Site(published, site_build, pages, orphans)


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves the site under ``SITE_PREFIX``; any other path, and any missing file, gets the site's
    404 page with status 404 (as GitHub Pages does)."""

    def translate_path(self, path: str) -> str:
        plain = urlsplit(path).path
        if not (plain + "/").startswith(SITE_PREFIX):
            return os.path.join(self.directory, ".outside-the-site", "nothing")
        return super().translate_path("/" + path[len(SITE_PREFIX) :] if len(path) >= len(SITE_PREFIX) else "/")

    def send_error(self, code, message=None, explain=None):
        page = os.path.join(self.directory, "404.html")
        if code != 404 or not os.path.isfile(page):
            return super().send_error(code, message, explain)
        with open(page, "rb") as file:
            body = file.read()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 - the standard library's name
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a browser that drops a connection mid-response is not a finding


@dataclass
class Server:
    url: str  # the site's root, under its sub-path; ends with "/"
    host: str  # "127.0.0.1:PORT"

    def page_of(self, url: str) -> str | None:
        """The site path (``02-one-head-by-hand/``) of a URL this server serves, or None outside the site."""
        parts = urlsplit(url)
        root = urlsplit(self.url)
        if parts.netloc != root.netloc or not (parts.path + "/").startswith(root.path):
            return None
        return parts.path[len(root.path) :]


@pytest.fixture(scope="session")
def server(site) -> Server:
    httpd = _Server(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site.dir)))
    thread = threading.Thread(target=httpd.serve_forever, name="site-server", daemon=True)
    thread.start()
    host = f"127.0.0.1:{httpd.server_address[1]}"
    try:
        yield Server(f"http://{host}{SITE_PREFIX}", host)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def chromium() -> str:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (scripts/install-chromium) first", pytrace=False)
    return CHROMIUM


@pytest.fixture(scope="session")
def playwright_instance(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def tour(chromium, server, site):
    """Every page visited once (desktop light, desktop dark, phone), with everything recorded."""
    from browsertour import tour as take_tour

    return take_tour(server.url, server.host, site)
