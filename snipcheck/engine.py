"""The whole check over a set of pages: read them into regions, run what they need, check each
region once, and keep the outcomes for the report stage (rendering, accepting, the verification
page).

Nothing here knows about MkDocs; the plugin and the command line are thin layers over ``Engine``.
The engine is made for a build (``serving=False``: ``mkdocs build``, the command line) or for a
served site (``serving=True``: ``mkdocs serve``), once: the choice picks the scheduler that runs
the snippets and whether the snippets are watched for what they change (a build only).
"""

from __future__ import annotations

import os
import posixpath
import sys
import time
from pathlib import Path

from .check.anchors import assign_anchors
from .check.cells import page_problems as cell_problems
from .check.cells import source_problems
from .check.records import Build, Context
from .check.regions import CHECK
from .kept import keep_in
from .layout import figure_folder, figure_path, figure_target
from .problems import Problem, ProblemKind
from .read.page import Document, parse
from .read.pages import MARKDOWN_SUFFIXES, read_folder
from .read.regions import NamedTie
from .run.background import ServeScheduler
from .run.cache import sha256
from .run.executor import Executor
from .run.jobs import RunFunction
from .run.result import Request, SnippetResult, Stats
from .run.schedule import BuildScheduler
from .run.store import ResultStore

_SETTLED_NS = 2_000_000_000  # a file older than this is kept by its stat (see Engine._unchanged)


def twice_from_environment() -> bool:
    """Whether each new result runs twice and is compared: ``SNIPCHECK_TWICE``, read as the site's
    mkdocs.yml reads it (``!ENV [SNIPCHECK_TWICE, false]``), so that the command line and
    ``mkdocs build`` ask the cache for the same kind of result and each reuses the other's."""
    return os.environ.get("SNIPCHECK_TWICE", "").strip().lower() in ("true", "yes", "on")


class Engine:
    def __init__(
        self,
        root: str | Path,
        docs_dir: str = "docs",
        snippets_dir: str = "snippets",
        cache_dir: str = ".cache/snipcheck",
        *,
        refresh: bool | None = None,
        check_determinism: bool | None = None,
        jobs: int | None = None,
        serving: bool = False,
        serve_wait: float = 5.0,
        warn=None,
    ) -> None:
        self.root = Path(root).resolve()
        self.docs_dir = (self.root / docs_dir).resolve()
        self.snippets_dir = (self.root / snippets_dir).resolve()
        if refresh is None:
            refresh = os.environ.get("SNIPCHECK_REFRESH", "") not in ("", "0")
        if check_determinism is None:
            check_determinism = twice_from_environment()
        warn = warn or (lambda message: print(f"snipcheck: warning: {message}", file=sys.stderr))
        keep_in(self.root / cache_dir / "kept")  # what is read out of each snippet's source
        self.check_determinism = check_determinism
        self.store = ResultStore(
            self.root, self.snippets_dir, self.root / cache_dir, refresh=refresh, check_determinism=check_determinism, keep_live=serving, warn=warn
        )
        self.executor = Executor(self.root, self.snippets_dir, self.root / cache_dir)
        run = RunFunction(self.executor, self.store, check_determinism)
        jobs = jobs or os.cpu_count() or 1
        self.scheduler = (
            ServeScheduler(self.store, run, self.executor, jobs, serve_wait) if serving else BuildScheduler(self.store, run, self.executor, jobs)
        )
        # A build watches the pages and snippets for what the snippets change; a served site does not.
        self.sandbox = None if serving else Sandbox(self)
        self._before: dict[str, str] | None = None
        # Each page's last reading, reused while its text is the same: a served site's next rebuild,
        # and a build's check of the pages ``start_live`` read.
        self._parsed: dict[str, tuple[str, Document]] = {}  # src_uri -> (text, reading)
        self._read: dict[Path, tuple[tuple[int, ...], object]] = {}  # what _unchanged keeps: path -> (stat, value)

    # -- what the faces use -------------------------------------------------------------------------
    def relative(self, path: Path) -> str:
        """``path`` relative to the project (as problems name files), or as given outside it."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    @property
    def docs_prefix(self) -> str:
        return self.relative(self.docs_dir)

    @property
    def snippets_prefix(self) -> str:
        return self.relative(self.snippets_dir)

    @property
    def sandbox_note(self) -> str | None:
        """What the executor said of the sandbox it could set up (a weaker one, say)."""
        return self.executor.sandbox_note

    def take_fork_note(self) -> str | None:
        """Why some runs started from a fresh interpreter, not the pre-imported parent; said once."""
        return self.executor.take_fork_note()

    def on_background_done(self, callback) -> None:
        """Serve: ``callback(name)`` when a run a page showed as running ends."""
        self.scheduler.on_background_done = callback

    def take_unannounced(self) -> set[str]:
        """Serve: the background runs that ended before ``on_background_done`` was set, once."""
        return self.scheduler.take_unannounced()

    def stop(self) -> None:
        """Stop every running snippet and everything it started."""
        self.scheduler.stop()

    def read_pages(self) -> tuple[dict[str, str], list[Problem]]:
        """src_uri -> text of every Markdown page in the docs folder, and the pages that could
        not be read (not UTF-8, say)."""
        return read_folder(self.docs_dir, self.relative)

    # -- checking -----------------------------------------------------------------------------------
    def start_live(self, pages: dict[str, str] | None = None) -> None:
        """Start the live snippets (timings) of ``pages`` (default: the pages on disk) before the
        build asks for them, so they run beside the builder's own start-up. A build's scheduler
        starts a measurement only if no other snippet has to run; a served site's none."""
        if self.sandbox is None:
            return
        if pages is None:
            pages, _ = self.read_pages()
        self._before = self.sandbox.snapshot()
        self.scheduler.start_live(self.requests(self.parse(pages)))

    def build(self, pages: dict[str, str] | None = None, *, read_problems: list[Problem] | None = None, wait_live: bool = True) -> Build:
        """Check ``pages`` (src_uri -> Markdown; default: every page in the docs folder).

        ``wait_live=False``: the live snippets run on in the background; the build comes back with
        them ``waiting`` and their regions unchecked, and ``finish`` completes it."""
        problems: list[Problem] = list(read_problems or [])
        if pages is None:
            pages, unreadable = self.read_pages()
            problems += unreadable
            if not pages and not unreadable:
                problems.append(self._no_pages())
        docs = self.parse(pages)
        before = (self._before or self.sandbox.snapshot()) if self.sandbox is not None else {}
        self._before = None
        results, stats = self.scheduler.run_all(self.requests(docs), wait_live=wait_live)
        out = self.check(docs, results, stats, problems)
        out.waiting = self.scheduler.waiting(stats)
        out.base_problems, out.before = problems, before
        if before and out.complete:
            out.problems += self.sandbox.changed(before, stats)
        return out

    def finish(self, build: Build) -> Build:
        """``build`` with its waiting live snippets run to the end and every region checked."""
        if build.complete:
            return build
        more, stats = self.scheduler.collect(build.waiting)
        stats.ran = build.stats.ran + stats.ran
        stats.cached = build.stats.cached
        out = self.check(build.docs, {**build.results, **more}, stats, build.base_problems)
        out.base_problems, out.before = build.base_problems, build.before
        if build.before:
            out.problems += self.sandbox.changed(build.before, stats)
        return out

    def parse(self, pages: dict[str, str]) -> dict[str, Document]:
        """Each page read into its regions. A page whose text did not change since the last
        reading keeps it (a Document is not changed once read): under ``mkdocs serve`` an edit
        reads only the page it touched, and a build reads each page once, in ``start_live``."""
        prefix, kept_pages = self.docs_prefix, self._parsed
        docs = {}
        for uri, text in sorted(pages.items()):
            kept = kept_pages.get(uri)
            docs[uri] = kept[1] if kept is not None and kept[0] == text else parse(text, posixpath.join(prefix, uri), uri)
        self._parsed = {uri: (pages[uri], doc) for uri, doc in docs.items()}
        return docs

    def requests(self, docs: dict[str, Document]) -> dict[str, Request]:
        requests: dict[str, Request] = {}
        for doc in docs.values():
            for run in doc.runs:
                old = requests.get(run.snippet, Request())
                requests[run.snippet] = Request(
                    max(filter(None, (old.timeout, run.timeout)), default=None),
                    old.live or run.live,
                    max(filter(None, (old.memory_mb, run.memory_mb)), default=None),
                )
            for tie in doc.ties:
                if isinstance(tie, NamedTie) and tie.snippet:
                    requests.setdefault(tie.snippet, Request())
        return requests

    def check(
        self,
        docs: dict[str, Document],
        results: dict[str, SnippetResult],
        stats: Stats | None = None,
        problems: list[Problem] | None = None,
        site: dict[str, Document] | None = None,
    ) -> Build:
        """Check every region of ``docs`` against ``results`` (no snippet runs here). ``site`` is
        every page of the site, if ``docs`` is only some of them: which snippets run, and which
        run live, is a property of the whole site."""
        sources = {}
        for name in results:
            try:
                sources[name] = self._unchanged(self.snippets_dir / name, lambda path: path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                pass
        out = Build(docs, results, stats or Stats(), sources, self.docs_prefix, self.snippets_prefix)
        out.problems += problems or []
        every = {**(site or {}), **docs}
        runs = [run for doc in every.values() for run in doc.runs]
        live = {run.snippet for run in runs if run.live}
        shown = {run.snippet for run in runs}
        drawn = {figure_path(name, fig) for name, r in results.items() for fig in r.figures}
        failed = tuple(figure_folder(name) + "/" for name, r in results.items() if r.error is not None or r.pending)
        out.problems += source_problems(sources, self.snippets_prefix)
        for uri, doc in docs.items():
            ctx = Context(doc.path, results, live, shown, uri, drawn, failed, self.snippets_prefix)
            for run in doc.runs:
                ctx.runs.setdefault(run.snippet, []).append(run)
            page_problems = list(doc.problems) + cell_problems(doc, sources, self.snippets_prefix)
            for region in doc.regions:
                outcome = CHECK(region, ctx)
                out.outcomes[region] = outcome
                page_problems += outcome.problems
                out.checks += outcome.checks
                out.citations += outcome.citations
            page_problems.sort(key=lambda p: p.line)
            out.page_problems[uri] = page_problems
            out.problems += page_problems
        out.problems += self._unused(every, results)
        assign_anchors(out)
        return out

    def recheck(self, build: Build, pages: dict[str, str]) -> Build:
        """``pages`` checked against the results of an earlier build (nothing runs but a snippet
        no earlier page named)."""
        docs = self.parse(pages)
        missing = {name for doc in docs.values() for name in doc.snippets()} - set(build.results)
        results = dict(build.results)
        if missing:
            more, _ = self.scheduler.run_all({name: Request() for name in missing})
            results.update(more)
        return self.check(docs, results, build.stats, site=build.docs)

    def _no_pages(self) -> Problem:
        where = self.docs_prefix
        if not self.docs_dir.is_dir():
            return Problem(ProblemKind.PROJECT, where, 1, f"there is no docs folder at {self.docs_dir}: run from the project folder, or pass --root")
        return Problem(ProblemKind.PROJECT, where, 1, f"no Markdown page in {self.docs_dir} ({', '.join(MARKDOWN_SUFFIXES)})")

    def _unused(self, docs: dict[str, Document], results: dict[str, SnippetResult]) -> list[Problem]:
        """Snippets no page runs and figures no page shows: both are work the reader never sees."""
        problems = []
        snippets_rel = self.snippets_prefix
        run = {run.snippet for doc in docs.values() for run in doc.runs}
        try:
            names = self._unchanged(self.snippets_dir, lambda folder: tuple(f.name for f in sorted(folder.glob("*.py"))) if folder.is_dir() else ())
        except OSError:  # no snippets folder
            names = ()
        for name in names:
            if not name.startswith("_") and name not in run and name not in results:
                problems.append(Problem(ProblemKind.UNUSED, f"{snippets_rel}/{name}", 1, "no page runs this snippet"))
        shown = {figure_target(uri, fig.src) for uri, doc in docs.items() for fig in [*doc.figures, *doc.widgets]}
        for name, result in sorted(results.items()):
            for fig in result.figures:
                site_path = figure_path(name, fig)
                if site_path not in shown:
                    problems.append(Problem(ProblemKind.FIGURE, f"{snippets_rel}/{name}", 1, f"draws {fig}, but no page shows {site_path}"))
        return problems

    def _unchanged(self, path: Path, read):
        """``read(path)``, kept while ``path`` stays as it was: the same file (device, inode), size,
        modification and change times (a folder's times change when an entry is added, removed or
        renamed). A file changed in the last two seconds is read every time, so that a second change
        within one tick of the file system's clock, which may leave its times as they were, is never missed."""
        st = os.stat(path)
        key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        kept = self._read.get(path)
        if kept is not None and kept[0] == key:
            return kept[1]
        value = read(path)
        if max(st.st_mtime_ns, st.st_ctime_ns) < time.time_ns() - _SETTLED_NS:
            self._read[path] = (key, value)
        else:
            self._read.pop(path, None)
        return value


class Sandbox:
    """What a snippet must not change: every file the build reads besides the project's modules
    (pages, snippets), hashed before the runs and compared after them."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def snapshot(self) -> dict[str, str]:
        found = {}
        for folder in (self.engine.docs_dir, self.engine.snippets_dir):
            if not folder.is_dir():
                continue
            for path in folder.rglob("*"):
                try:
                    if path.is_file():
                        found[self.engine.relative(path)] = sha256(path.read_bytes())
                except OSError:
                    continue
        return found

    def changed(self, before: dict[str, str], stats: Stats) -> list[Problem]:
        if not stats.ran:
            return []
        after = self.snapshot()
        changed = sorted(set(before) ^ set(after) | {p for p in before if p in after and before[p] != after[p]})
        prefix = self.engine.snippets_prefix
        ran = ", ".join(f"{prefix}/{name}" for name in sorted(stats.ran))
        return [
            Problem(
                ProblemKind.SANDBOX,
                path,
                1,
                f"changed while the snippets ran ({ran}): a snippet may write only inside its working folder; "
                "if you edited it yourself meanwhile, run the check again",
            )
            for path in changed
        ]
