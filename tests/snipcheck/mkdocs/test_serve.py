"""Under a real ``mkdocs serve``: an edit rechecks only what it touched, and the server never stops
answering, whatever a snippet does.

One server, one session, edits in turn (under ``mkdocs serve`` and ``mkdocs serve --dirty``): a prose edit runs no snippet; a snippet edit runs that
snippet alone; a snippet that raises shows its error at the top of its page; a snippet that loops
shows as still running after ``serve_wait`` while every page keeps answering; fixing it replaces
the looping run (which is stopped, not left to its timeout) and the page shows the new output;
and a server that is terminated while a snippet loops leaves no snippet running. A real server,
because the promise is about what an author sees in the browser.


Hostile command lines and a hostile preview: the wrong folder fails instead of reporting
"0 snippets run"; under ``mkdocs serve`` a raising or looping snippet never holds the server.

Under ``serve --dirty`` the builder's notice that a dirty build may be stale is dropped, from
MkDocs' build logger and from ProperDocs' alike (a strict preview would abort on it)."""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

import psutil
import pytest

from snipcheck.mkdocs.serve import BUILD_LOGGERS, drop_dirty_notice, not_the_dirty_notice, published_site_url

PAGE = '# P\n\n```python run="a.py" timeout=600\n```\n\n```output\nx = 0.5\n```\n'
SNIPPET = "x = 0.5\nprint('x =', x)\n"
WAIT = 90  # seconds: generous, the machines are shared


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    def __init__(self, root, log, builder: str = "mkdocs", flags: tuple[str, ...] = ()) -> None:
        self.port, self.log = _port(), log
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        self.output = open(log, "wb")  # noqa: SIM115 - closed by close()
        self.process = subprocess.Popen(
            [sys.executable, "-m", builder, "serve", *flags, "-a", f"127.0.0.1:{self.port}"],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.output,
            stderr=subprocess.STDOUT,
        )

    def get(self, path: str, timeout: float = 10) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=timeout) as response:
            return response.read().decode("utf-8", "replace")

    def wait_for(self, path: str, *texts: str, absent: str = "") -> str:
        deadline = time.monotonic() + WAIT
        page = ""
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the server ended:\n{self.log.read_text(errors='replace')[-3000:]}"
            try:
                page = self.get(path)
                if all(t in page for t in texts) and not (absent and absent in page):
                    return page
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"/{path} never showed {texts} (without {absent!r}):\n{page[-2000:]}\n{self.log.read_text(errors='replace')[-3000:]}")

    def mark(self) -> int:
        """Where the log ends now: ``runs_since`` reads the rebuilds after it."""
        return len(self.log.read_text(errors="replace"))

    def runs_since(self, mark: int) -> tuple[int, list[str]]:
        """(snippet runs the rebuilds after ``mark`` started, their summary lines). A run that
        outlasts ``serve_wait`` shows first as "still running", then comes from the cache."""
        deadline, lines = time.monotonic() + WAIT, []
        while time.monotonic() < deadline:  # a page is written before its build's summary
            lines = re.findall(r"snipcheck: \d+ snippets run, [^\n]*\n", self.log.read_text(errors="replace")[mark:])
            if lines and "still running" not in lines[-1]:
                break
            time.sleep(0.1)
        assert lines, self.log.read_text(errors="replace")
        ran = sum(int(re.match(r"snipcheck: (\d+)", line)[1]) for line in lines)
        background = max((int(m[1]) for line in lines if (m := re.search(r"(\d+) still running", line))), default=0)
        return ran + background, lines

    def snippet_processes(self) -> list[psutil.Process]:
        """A run's processes: a fresh interpreter's (``_bootstrap.py``) or those forked from the
        pre-imported parent (``_zygote.py``, which a fork's command line still shows)."""
        found = []
        for process in psutil.Process(self.process.pid).children(recursive=True):
            try:
                started = " ".join(process.cmdline())
                forked = "_zygote.py" in started and "_zygote.py" in " ".join(process.parent().cmdline())
                if process.status() != psutil.STATUS_ZOMBIE and ("_bootstrap.py" in started or forked):
                    found.append(process)
            except (psutil.NoSuchProcess, AttributeError):
                continue
        return found

    def running_snippets(self) -> list[str]:
        return [" ".join(p.cmdline()) for p in self.snippet_processes() if _alive(p)]

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.output.close()


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _gone(processes: list[psutil.Process], seconds: float) -> list[psutil.Process]:
    """The processes still alive after waiting up to ``seconds`` for them to end."""
    deadline = time.monotonic() + seconds
    while any(_alive(p) for p in processes) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [p for p in processes if _alive(p)]


# make serve runs `mkdocs serve --dirty`: MkDocs rebuilds only the pages it finds modified, and
# the plugin has to add those whose snippet changed under an unchanged page (strict, as the site).
# ProperDocs, the fallback builder, logs the dirty-build notice on a logger of its own.
@pytest.fixture(
    params=[("mkdocs", ()), ("mkdocs", ("--dirty",)), ("properdocs", ("--dirty",))], ids=["serve", "serve --dirty", "properdocs serve --dirty"]
)
def served(project, tmp_path_factory, request, mkdocs_yml):
    builder, flags = request.param
    # ProperDocs ships no default theme: it builds with the site's (Material, no web fonts).
    theme = "theme:\n  name: material\n  font: false\n" if builder == "properdocs" else ""
    config = mkdocs_yml(nav=("p.md", "q.md", "verification.md"), serve_wait=1) + theme + "strict: true\n"
    (project.root / "mkdocs.yml").write_text(config, encoding="utf-8")
    project.page("p.md", PAGE)
    project.page("q.md", "# Q\n\nProse only.\n")
    project.snippet("a.py", SNIPPET)
    server = Served(project.root, tmp_path_factory.mktemp("serve") / "serve.log", builder, flags)
    try:
        # The first build's run may go on in the background (serve_wait=1 on a loaded machine): the
        # tests start once it has ended and the rebuild it asks for is done.
        server.wait_for("p/", "x = 0.5", absent="Snippets still running")
        yield project, server
    finally:
        server.close()


def _edit(path, text: str) -> None:
    time.sleep(0.3)  # a watcher that batches events sees each edit as its own
    path.write_text(text, encoding="utf-8")


def test_serve_rechecks_what_an_edit_touched_and_keeps_answering_whatever_a_snippet_does(served):
    project, server = served
    docs, snippet = project.root / "docs", project.root / "snippets" / "a.py"

    mark = server.mark()
    _edit(docs / "q.md", "# Q\n\nProse only, edited: marker-prose.\n")
    server.wait_for("q/", "marker-prose")
    runs, lines = server.runs_since(mark)
    assert runs == 0, f"a prose edit ran a snippet: {lines}"

    config = project.root / "mkdocs.yml"  # what every page shows: every page is rebuilt
    _edit(config, config.read_text(encoding="utf-8").replace("site_name: t\n", "site_name: marker-site\n"))
    server.wait_for("p/", "marker-site", "x = 0.5")
    server.wait_for("q/", "marker-site", "marker-prose")

    mark = server.mark()
    _edit(snippet, SNIPPET + "# marker-snippet\n")
    server.wait_for("p/", "marker-snippet", "x = 0.5", absent="Snippets still running")
    runs, lines = server.runs_since(mark)
    assert runs == 1, f"a snippet edit did not run that snippet once: {lines}"

    _edit(snippet, "raise ValueError('broken on purpose')\n")
    page = server.wait_for("p/", "This page does not build", "broken on purpose")
    assert "ValueError" in page
    assert "Prose only, edited" in server.get("q/")

    _edit(snippet, "while True:\n    pass\n")
    server.wait_for("p/", "Snippets still running", "snippets/a.py")
    assert server.running_snippets(), "the looping snippet is not running"
    start = time.monotonic()
    assert "Prose only, edited" in server.get("q/") and "# P" not in server.get("q/")
    assert time.monotonic() - start < 5, "serve stopped answering while a snippet loops"

    _edit(snippet, SNIPPET + "# marker-fixed\n")
    page = server.wait_for("p/", "marker-fixed", "x = 0.5", absent="Snippets still running")
    assert "This page does not build" not in page
    deadline = time.monotonic() + 15
    while server.running_snippets() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert server.running_snippets() == [], "the superseded looping run was left running"

    _edit(snippet, "while True:\n    pass\n")
    server.wait_for("p/", "Snippets still running")
    looping = server.snippet_processes()
    assert looping
    server.process.terminate()  # as an editor or a script stops the server
    server.process.wait(timeout=60)
    assert _gone(looping, 15) == [], "a terminated server left its looping snippet running"


def test_under_serve_a_rebuild_reads_again_only_the_pages_whose_text_changed(project):
    engine = project.engine(serving=True)
    pages = {"p.md": "# P\n\nIt is {{ 2 = x }}.\n", "q.md": "# Q\n\nProse.\n"}
    first = engine.parse(pages)
    second = engine.parse({**pages, "q.md": "# Q\n\nProse, edited.\n"})
    assert second["p.md"] is first["p.md"] and second["q.md"] is not first["q.md"]
    assert "edited" in second["q.md"].text
    build_engine = project.engine()  # a build too: start_live's reading is the check's
    assert build_engine.parse(pages)["p.md"] is build_engine.parse(pages)["p.md"]


def test_a_run_that_ends_before_the_server_watches_still_rebuilds_the_site(project):
    """The first build of ``mkdocs serve`` shows a slow snippet as running; if it ends before the
    server has started watching (the plugin's ``on_serve``), its end must still trigger the rebuild
    that shows its output: the plugin touches the trigger once the watcher runs."""
    from concurrent.futures import Future

    from snipcheck.mkdocs.plugin import SnipcheckPlugin
    from snipcheck.run.result import SnippetResult

    plugin = SnipcheckPlugin()
    plugin.load_config({})
    plugin.engine = project.engine(serving=True)
    runner = plugin.engine.scheduler
    ended = Future()
    ended.set_result(SnippetResult("slow.py"))
    runner._background["slow.py"], runner._announce = ("key", ended), {"slow.py"}  # shown as running
    runner._background_done("slow.py", ended)  # ...and ended with nobody listening yet

    class Watcher:
        started = False

        def is_alive(self):
            return self.started

    class Server:
        observer = Watcher()
        watched: list[str] = []

        def watch(self, path, recursive=True):
            self.watched.append(path)

    server = Server()

    def touched_only_once_the_watcher_runs(start) -> bool:
        """With the watcher not running yet, ``start()``; no touch until it runs, then one."""
        server.observer.started = False
        start()  # (on_serve touches the trigger as it creates it: the first look's state)
        before = plugin.trigger.path.stat().st_mtime_ns
        time.sleep(1.5)
        assert plugin.trigger.path.stat().st_mtime_ns == before, "touched before the watcher ran: the touch would be missed"
        server.observer.started = True
        deadline = time.monotonic() + 10
        while plugin.trigger.path.stat().st_mtime_ns == before and time.monotonic() < deadline:
            time.sleep(0.05)
        return plugin.trigger.path.stat().st_mtime_ns != before

    assert touched_only_once_the_watcher_runs(lambda: plugin.on_serve(server, config=None, builder=None)), "the run's end never triggered a rebuild"
    assert str(plugin.trigger.path) in server.watched
    assert runner.take_unannounced() == set()  # handed out once
    # A run that ends after on_serve but before the watcher runs: the same wait, then the touch.
    assert touched_only_once_the_watcher_runs(lambda: runner.on_background_done("slow.py")), (
        "a run ending before the watcher ran never triggered a rebuild"
    )
    touched = plugin.trigger.path.stat().st_mtime_ns
    time.sleep(0.05)
    runner.on_background_done("slow.py")  # once the watcher runs, at once
    assert plugin.trigger.path.stat().st_mtime_ns != touched


@pytest.mark.hostile
def test_a_real_mkdocs_serve_keeps_answering_through_a_raising_and_a_looping_snippet(project, tmp_path, mkdocs_yml):
    """Strict mode, as the site runs: a missing figure would be a warning that stops the preview."""
    import socket
    import subprocess
    import sys
    import urllib.request

    config = mkdocs_yml(notebooks_dir="notebooks", serve_wait=1).replace("site_name: t", "site_name: t\nstrict: true")
    (project.root / "mkdocs.yml").write_text(config, encoding="utf-8")
    project.page("ok.md", '# OK\n\n```python run="ok.py"\n```\n')
    project.snippet("ok.py", "x = 1\n")
    project.page("bad.md", '# Bad\n\n```python run="bad.py"\n```\n\n![A plot](figures/bad/plot.svg)\n')
    project.snippet("bad.py", "raise ValueError('broken')\n")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=project.root,
        env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )

    def page_with(path, text, timeout=90, absent=None):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert server.poll() is None, (tmp_path / "serve.log").read_text(errors="replace")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=30) as response:
                    html = response.read().decode("utf-8", "replace")
                if text in html and not (absent and absent in html):
                    return html
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"{path} never showed {text!r} without {absent!r}:\n" + (tmp_path / "serve.log").read_text(errors="replace")[-3000:])

    try:
        page_with("bad/", "This page does not build")
        page_with("figures/bad/plot.svg", "bad.py failed")
        project.snippet("bad.py", "while True:\n    pass\n")  # now it loops: the page says it is running
        page_with("bad/", "Snippets still running")
        page_with("ok/", "OK")  # and the rest of the site answers meanwhile
        project.snippet("bad.py", "import matplotlib.pyplot as plt\n\nfig, ax = plt.subplots()\nfig.savefig('plot.svg')\n")
        page_with("bad/", "figures/bad/plot.svg")
        page_with("figures/bad/plot.svg", "<?xml")
        # A build writes the figures before the pages: the drawn figure can be served while the
        # page still shows an earlier rebuild's error, until its own rebuild writes it.
        page_with("bad/", "</html>", absent="This page does not build")
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()


NOTICE = (
    "A 'dirty' build is being performed, this will likely lead to inaccurate navigation and other"
    " links within your site. This option is designed for site development purposes only."
)


class _Caught(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def caught(request):
    """A handler on ``request.param``'s build logger, no builder's notice dropped yet (each
    logger's filters are restored afterwards)."""
    kept = {name: list(logging.getLogger(name).filters) for name in BUILD_LOGGERS}
    for name in BUILD_LOGGERS:
        logging.getLogger(name).filters = [f for f in kept[name] if f is not not_the_dirty_notice]
    logger = logging.getLogger(request.param)
    handler = _Caught()
    logger.addHandler(handler)
    yield logger, handler
    logger.removeHandler(handler)
    for name, filters in kept.items():
        logging.getLogger(name).filters = filters


@pytest.mark.parametrize("caught", ["mkdocs.commands.build", "properdocs.commands.build"], indirect=True)
def test_the_dirty_notice_is_dropped_from_either_builders_log(caught):
    logger, handler = caught
    logger.warning(NOTICE)
    assert handler.messages == [NOTICE]  # not dropped before serve --dirty asks
    drop_dirty_notice()
    drop_dirty_notice()  # twice (a second serve in one process): one filter
    assert logger.filters.count(not_the_dirty_notice) == 1
    logger.warning(NOTICE)
    logger.warning("Doc file 'p.md' contains a link 'x.md', but the target is not found")
    assert handler.messages == [NOTICE, "Doc file 'p.md' contains a link 'x.md', but the target is not found"]


@pytest.mark.parametrize("module", ["mkdocs.commands.build", "properdocs.commands.build"])
def test_the_filtered_loggers_are_the_ones_the_builders_log_on(module):
    """The notice comes from each builder's own ``commands.build`` module, worded as filtered."""
    import importlib
    import inspect

    built = importlib.import_module(module)
    assert built.log.name in BUILD_LOGGERS
    assert "A 'dirty' build is being performed" in inspect.getsource(built)


@pytest.mark.parametrize(
    ("settings", "environment", "published"),
    [
        ("site_url: https://example.org/a/\n", {}, "https://example.org/a/"),
        ("site_url: !ENV [SITE_URL, 'https://example.org/a/']\n", {"SITE_URL": "https://fork.example/b/"}, "https://fork.example/b/"),
        ("site_name: t\n", {}, "http://127.0.0.1:8123/"),
    ],
    ids=["given", "from the environment", "none: serve's own"],
)
def test_under_serve_the_site_url_is_the_configuration_file_s(tmp_path, monkeypatch, settings, environment, published):
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "mkdocs.yml").write_text(settings, encoding="utf-8")
    config = type("Config", (), {"config_file_path": str(tmp_path / "mkdocs.yml"), "site_url": "http://127.0.0.1:8123/"})()
    assert published_site_url(config, serving=True) == published
    assert published_site_url(config, serving=False) == "http://127.0.0.1:8123/"  # a build's, as given
