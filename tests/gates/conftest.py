"""Fixtures for the site's quality gates: the real site built once per session, served on loopback.

Everything is derived from what the build produced (the sitemap, the HTML files), never from a
hand-kept list of pages, because the pages are being written while these tests run.

- ``site_build``: ``mkdocs build --strict`` of the real project into a temporary folder, with the
  project's own ``.cache/snipcheck`` (so it is warm after the first build);
- ``site``: the same, failing every dependent test with the build log if the build failed;
- ``server``: the built folder served by the standard library on 127.0.0.1 and a free port;
- ``browser``: Debian's Chromium driven by Playwright (never a downloaded browser).
"""

from __future__ import annotations

import functools
import os
import threading
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sitekit import CHROMIUM, CHROMIUM_ARGS, ROOT, BuildRun, Site, crawl, mkdocs_build


@pytest.fixture(scope="session")
def site_build(tmp_path_factory) -> BuildRun:
    """The real project, built strictly into a temporary folder (never into the shared site/)."""
    return mkdocs_build(ROOT, tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="session")
def site(site_build) -> Site:
    if not site_build.ok:
        pytest.fail(f"mkdocs build --strict failed (exit {site_build.returncode}):\n{site_build.log[-6000:]}",
                    pytrace=False)
    pages, orphans = crawl(site_build.site_dir)
    return Site(site_build.site_dir, site_build, pages, orphans)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the standard library's name
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a browser that drops a connection mid-response is not a finding


@dataclass
class Server:
    url: str  # ends with "/"
    host: str  # "127.0.0.1:PORT"


@pytest.fixture(scope="session")
def server(site) -> Server:
    httpd = _Server(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site.dir)))
    thread = threading.Thread(target=httpd.serve_forever, name="site-server", daemon=True)
    thread.start()
    host = f"127.0.0.1:{httpd.server_address[1]}"
    try:
        yield Server(f"http://{host}/", host)
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
