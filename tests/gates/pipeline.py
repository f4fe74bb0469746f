"""The gates' long work, started when the session knows the selected tests need it, in threads of
its own, so that it runs beside every other test instead of before the tests that use it.

Each stage is a function of the stages it needs (``STAGES``): the strict build of the project, the
second clean build and the reader's fresh Pythons (they need only the sources), the offline build
(after the first, which warms it), the published site, the server, the browser tour and the run of
every downloadable notebook (both need the published site). ``Pipeline.start`` submits a stage and,
first, what it needs; ``Pipeline.result`` waits for it. Stages only wait on subprocesses (builds,
pip, Chromium, kernels), so a thread each is enough.

``conftest.py`` starts, right after collection, every stage that a selected test's fixtures name
(``STAGES`` are fixtures of the same names), moves the tests under ``tests/gates`` after all the
others, and closes the pipeline when the session ends. A stage that fails raises its exception in
every test that uses it; a build that failed is ``StageFailed`` with its log.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from readerenv import READER_PYTHON, TORCH_PYTHON, fresh_environment, pins
from sitekit import (
    ANOTHER_DAY,
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


class StageFailed(Exception):
    """A stage's work failed as a test should report it: the message says what, with its log."""


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


class Pipeline:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self._pool = ThreadPoolExecutor(max_workers=len(STAGES) + 2, thread_name_prefix="gates")
        self._futures: dict[str, Future] = {}
        self._lock = threading.Lock()
        self._httpd: _Server | None = None
        self._began = time.monotonic()
        self.times: dict[str, tuple[float, float]] = {}  # stage -> (start, end), seconds since the pipeline began

    def folder(self, name: str) -> Path:
        """A new empty folder for a stage's files."""
        path = self.tmp / name
        path.mkdir(parents=True)
        return path

    def start(self, name: str) -> Future:
        """The stage ``name``, submitted now (with what it needs, first) unless it already was."""
        needs, work = STAGES[name]
        for need in needs:
            self.start(need)
        with self._lock:
            if name not in self._futures:
                self._futures[name] = self._pool.submit(self._timed, name, work)
            return self._futures[name]

    def _timed(self, name: str, work: Callable[[Pipeline], object]):
        start = time.monotonic() - self._began
        try:
            return work(self)
        finally:
            self.times[name] = (start, time.monotonic() - self._began)

    def timeline(self) -> list[str]:
        """When each stage ran, in seconds from the start (a stage's time includes its wait for those it needs)."""
        ordered = sorted(self.times.items(), key=lambda item: item[1])
        return [f"{name}: {start:.0f}-{end:.0f} s" for name, (start, end) in ordered]

    def result(self, name: str):
        return self.start(name).result()

    def submit(self, fn: Callable, *args) -> Future:
        """More work for a stage, beside it (the two reader Pythons are made side by side)."""
        return self._pool.submit(fn, *args)

    def serve(self, directory: Path) -> Server:
        httpd = _Server(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory)))
        threading.Thread(target=httpd.serve_forever, name="site-server", daemon=True).start()
        self._httpd = httpd
        host = f"127.0.0.1:{httpd.server_address[1]}"
        return Server(f"http://{host}{SITE_PREFIX}", host)

    def close(self) -> None:
        """Wait for every stage started (a stage is a subprocess with its own timeout), then stop the server."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()


# -- the stages --------------------------------------------------------------------------------------


def _site_build(p: Pipeline) -> BuildRun:
    """The real project, built strictly into a temporary folder (never into the shared site/), with the
    project's own .cache (so a later build is warm), configured as ``make publish`` configures it."""
    return mkdocs_build(ROOT, p.folder("site") / "site")


def _second_clean_build(p: Pipeline) -> BuildRun:
    """A copy of the project's sources (so no cache) in another folder, built as if on another day
    (test_reproducible.py)."""
    root = p.folder("reproducible")
    project = copy_project(root / "b")
    return mkdocs_build(project, root / "b-site", env={"SOURCE_DATE_EPOCH": ANOTHER_DAY})


def _pins_file(p: Pipeline) -> Path:
    """The constraints file every install in a reader's environment obeys (readerenv.pins)."""
    path = p.folder("pins") / "constraints.txt"
    path.write_text(pins(), encoding="utf-8")
    return path


def _reader_pythons(p: Pipeline) -> dict[str, Path]:
    """The notebook gate's fresh environments, made side by side: {Python version: its interpreter}."""
    constraints = p.result("pins_file")
    made = {
        version: p.submit(fresh_environment, version, p.folder(f"reader-{version}"), constraints)
        for version in (READER_PYTHON, TORCH_PYTHON)
    }
    return {version: future.result() for version, future in made.items()}


def _offline_build(p: Pipeline) -> BuildRun:
    """The build for reading offline, after the first one, so that it reuses its snippet results."""
    p.result("site_build")
    return mkdocs_build(ROOT, p.folder("offline") / "site", env=offline_build_env(ROOT))


def _site(p: Pipeline) -> Site:
    """The site as ``make publish`` makes it: the first build, with the zip of the offline build inside."""
    site_build, offline_build = p.result("site_build"), p.result("offline_build")
    for name, run in (("mkdocs build --strict", site_build), ("the offline build", offline_build)):
        if not run.ok:
            raise StageFailed(f"{name} failed (exit {run.returncode}):\n{run.log[-6000:]}")
    # Into a copy, so that the first build's folder stays what that build wrote (test_reproducible.py
    # compares it).
    published = p.folder("published") / "site"
    shutil.copytree(site_build.site_dir, published)
    write_offline_zip(offline_build.site_dir, published / OFFLINE_ZIP)
    pages, orphans = crawl(published)
    return Site(published, site_build, pages, orphans)


def _server(p: Pipeline) -> Server:
    """The published site served by the standard library on 127.0.0.1 and a free port, under the
    sub-path of its site_url, answering any other path with its 404 page, as GitHub Pages serves it."""
    return p.serve(p.result("site").dir)


def _tour(p: Pipeline):
    """Every page visited once in Chromium (desktop light, desktop dark, phone), everything recorded."""
    from browsertour import tour

    server = p.result("server")
    return tour(server.url, server.host, p.result("site"))


def _notebook_runs(p: Pipeline):
    """Every downloadable notebook run as a reader runs it (test_notebooks.py)."""
    from notebookgate import run_downloaded

    pythons = p.result("reader_pythons")
    return run_downloaded(p.result("site"), p.result("server"), pythons, p.result("pins_file"), p.folder("notebooks"))


# name: (the stages it needs, the work)
STAGES: dict[str, tuple[tuple[str, ...], Callable[[Pipeline], object]]] = {
    "site_build": ((), _site_build),
    "second_clean_build": ((), _second_clean_build),
    "pins_file": ((), _pins_file),
    "reader_pythons": (("pins_file",), _reader_pythons),
    "offline_build": (("site_build",), _offline_build),
    "site": (("site_build", "offline_build"), _site),
    "server": (("site",), _server),
    "tour": (("server",), _tour),
    "notebook_runs": (("server", "reader_pythons"), _notebook_runs),
}
