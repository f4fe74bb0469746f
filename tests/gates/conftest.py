"""Fixtures for the site's quality gates: the real site built once per session, served on loopback.

Everything is derived from what the build produced (the sitemap, the HTML files), never from a
hand-kept list of pages, because the pages are being written while these tests run.

The long work (the builds, the reader's fresh Pythons, the browser tour, the notebook runs) is
``pipeline.py``'s: right after collection the session starts every stage a selected test needs,
in threads of its own, and the tests under ``tests/gates`` run after every other test, so the
library's and the checker's tests run while the site builds. The fixtures below wait for their
stage:

- ``site_build``: ``mkdocs build --strict`` of the real project into a temporary folder, with the
  project's own ``.cache/snipcheck`` (so it is warm after the first build), configured as
  ``make publish`` configures it (sitekit.PUBLISH_ENV: published at a sub-path);
- ``second_clean_build``: test_reproducible.py's other clean build, of a copy of the project without
  its caches, in another folder, as if on another day;
- ``reader_pythons``: the notebook gate's fresh environments, one per Python;
- ``offline_build``: the build for reading offline (``make offline``), after the first (warm);
- ``site``: the site as ``make publish`` makes it, the first build with the zip of the offline
  build inside; failing every dependent test with the build log if a build failed;
- ``server``: the site served by the standard library on 127.0.0.1 and a free port, under the
  sub-path of its site_url (``/some-prefix/``), answering any other path with its 404 page, as
  GitHub Pages serves a project;
- ``tour``: every page visited once in Chromium (browsertour.py);
- ``notebook_runs``: every downloadable notebook run as a reader runs it (notebookgate.py);
- ``browser``: Debian's Chromium driven by Playwright (never a downloaded browser).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pipeline import STAGES, Pipeline, StageFailed
from sitekit import CHROMIUM, CHROMIUM_ARGS

GATES = Path(__file__).resolve().parent
PIPELINE = pytest.StashKey[Pipeline]()


def pytest_configure(config):
    config.addinivalue_line("markers", "builders: builds the site with another builder (make properdocs)")


def _in_gates(item) -> bool:
    return Path(str(item.path)).resolve().is_relative_to(GATES)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``builders`` run only when asked for by name, ``-m builders`` (make properdocs,
    which CI runs after make test): they cost another whole build. The gates run after every other
    test, which runs while the pipeline builds the site."""
    if "builders" not in (config.getoption("markexpr", "") or ""):
        kept = [item for item in items if item.get_closest_marker("builders") is None]
        if len(kept) != len(items):
            config.hook.pytest_deselected(items=[item for item in items if item not in kept])
            items[:] = kept
    items[:] = [item for item in items if not _in_gates(item)] + [item for item in items if _in_gates(item)]


def _pipeline(config) -> Pipeline:
    if PIPELINE not in config.stash:
        config.stash[PIPELINE] = Pipeline(config._tmp_path_factory.mktemp("gates"))
    return config.stash[PIPELINE]


def pytest_collection_finish(session):
    """Start, now, every stage of the pipeline that a selected test's fixtures name."""
    if session.config.option.collectonly:
        return
    needed = sorted({name for item in session.items for name in getattr(item, "fixturenames", ()) if name in STAGES})
    for name in needed:
        _pipeline(session.config).start(name)


def pytest_sessionfinish(session):
    if PIPELINE in session.config.stash:
        session.config.stash[PIPELINE].close()


def pytest_terminal_summary(terminalreporter, config):
    """When the gates' long work ran, beside the other tests (what bounds make test's time)."""
    if PIPELINE in config.stash and config.stash[PIPELINE].times:
        terminalreporter.write_sep("-", "site gates, their long work")
        terminalreporter.write_line("; ".join(config.stash[PIPELINE].timeline()))


def _stage(request, name: str):
    try:
        return _pipeline(request.config).result(name)
    except StageFailed as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def site_build(request):
    return _stage(request, "site_build")


@pytest.fixture(scope="session")
def second_clean_build(request):
    return _stage(request, "second_clean_build")


@pytest.fixture(scope="session")
def pins_file(request) -> Path:
    return _stage(request, "pins_file")


@pytest.fixture(scope="session")
def reader_pythons(request) -> dict[str, Path]:
    return _stage(request, "reader_pythons")


@pytest.fixture(scope="session")
def offline_build(request):
    return _stage(request, "offline_build")


@pytest.fixture(scope="session")
def site(request):
    return _stage(request, "site")


@pytest.fixture(scope="session")
def server(request):
    return _stage(request, "server")


@pytest.fixture(scope="session")
def tour(request, chromium):
    return _stage(request, "tour")


@pytest.fixture(scope="session")
def notebook_runs(request):
    return _stage(request, "notebook_runs")


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
