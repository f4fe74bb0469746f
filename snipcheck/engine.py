"""The whole check over a set of pages: read them into regions, run what they need, check each
region once, and keep the outcomes for rendering, accepting and the verification page.

Nothing here knows about MkDocs; the plugin and the command line are thin layers over ``Engine``.
"""

from __future__ import annotations

import os
import posixpath
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from .cache import sha256
from .document import FIGURES_DIR, Document, parse
from .regions import Check, Citation, Context, Outcome, Region
from .results import Problem, ProblemKind, SnippetResult
from .runner import Request, Runner, Stats

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")  # as MkDocs reads them
_SETTLED_NS = 2_000_000_000  # a file older than this is kept by its stat (see Engine._unchanged)
_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)


@dataclass
class Build:
    """The outcome of one check of the site: every page's regions and what checking each found."""

    docs: dict[str, Document]  # src_uri (relative to the docs folder) -> parsed page
    results: dict[str, SnippetResult]
    stats: Stats
    sources: dict[str, str]
    docs_prefix: str
    outcomes: dict[int, Outcome] = field(default_factory=dict)  # id(region) -> its outcome
    problems: list[Problem] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    page_problems: dict[str, list[Problem]] = field(default_factory=dict)
    serving: bool = False
    # Live snippets still running in a build that did not wait for them (``Engine.finish`` does).
    waiting: set[str] = field(default_factory=set)
    base_problems: list[Problem] = field(default_factory=list)  # found before any snippet ran
    before: dict[str, str] = field(default_factory=dict)  # hashes of pages and snippets before the runs

    @property
    def complete(self) -> bool:
        return not self.waiting

    def needs(self, src_uri: str) -> bool:
        """Whether the page shows or checks something a snippet still running will give."""
        doc = self.docs.get(src_uri)
        return doc is not None and bool(self.waiting.intersection(doc.snippets()))

    def outcome(self, region: Region) -> Outcome:
        return self.outcomes.get(id(region), Outcome())

    def rendered(self, src_uri: str) -> str:
        from .render import render

        return render(self, src_uri)

    def figures(self) -> dict[str, bytes]:
        """Site path (relative to the docs folder) -> bytes of every figure the snippets drew."""
        return {
            f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/{fig}": result.figure_bytes(fig)
            for name, result in sorted(self.results.items())
            for fig in result.figures
        }

    def verification(self, titles: dict[str, str] | None = None, use_directory_urls: bool = True) -> str:
        from .ledger import verification_page

        titles = titles or {uri: page_title(doc) for uri, doc in self.docs.items()}
        return verification_page(self, titles, use_directory_urls)

    def report(self) -> str:
        """All problems, one per entry, each starting with file:line."""
        return "\n".join(str(p) for p in self.problems)


def page_title(doc: Document) -> str:
    """The page's first-level heading as a reader sees it (ties shown as their numbers)."""
    from .render import plain_title

    return plain_title(doc)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "page"


class Engine:
    def __init__(self, root: str | Path, docs_dir: str = "docs", snippets_dir: str = "snippets",
                 cache_dir: str = ".cache/snipcheck", *, refresh: bool | None = None,
                 check_determinism: bool = True, jobs: int | None = None, mode: str = "build",
                 serve_wait: float = 5.0, warn=None) -> None:
        self.root = Path(root).resolve()
        self.docs_dir = (self.root / docs_dir).resolve()
        self.snippets_dir = (self.root / snippets_dir).resolve()
        if refresh is None:
            refresh = os.environ.get("SNIPCHECK_REFRESH", "") not in ("", "0")
        self.mode = mode
        self.runner = Runner(self.root, self.snippets_dir, self.root / cache_dir, refresh=refresh,
                             check_determinism=check_determinism, jobs=jobs, mode=mode, serve_wait=serve_wait, warn=warn)
        self._before: dict[str, str] | None = None
        self._parsed: dict[str, tuple[str, Document]] = {}  # serve: src_uri -> (text, its reading)
        self._read: dict[Path, tuple[tuple[int, ...], object]] = {}  # what _unchanged keeps: path -> (stat, value)

    def _rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def read_pages(self) -> tuple[dict[str, str], list[Problem]]:
        """src_uri -> text of every Markdown page in the docs folder, and the pages that could
        not be read (not UTF-8, say)."""
        pages, problems = {}, []
        if not self.docs_dir.is_dir():
            return pages, problems
        for path in sorted(self.docs_dir.rglob("*")):
            if path.suffix.lower() not in MARKDOWN_SUFFIXES or not path.is_file():
                continue
            text, problem = decode_page(path.read_bytes(), self._rel(path))
            if problem is not None:
                problems.append(problem)
            else:
                pages[path.relative_to(self.docs_dir).as_posix()] = text
        return pages, problems

    def start_live(self, pages: dict[str, str] | None = None) -> None:
        """Start the live snippets (timings) of ``pages`` (default: the pages on disk) before the
        build asks for them, so they run beside the builder's own start-up. Build mode only; a
        measurement starts only if no other snippet has to run (see ``Runner.start_live``)."""
        if self.mode == "serve":
            return
        if pages is None:
            pages, _ = self.read_pages()
        self._before = self._protected()
        self.runner.start_live(self.requests(self.parse(pages)))

    def build(self, pages: dict[str, str] | None = None, *, read_problems: list[Problem] | None = None,
              wait_live: bool = True) -> Build:
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
        before = (self._before or self._protected()) if self.mode != "serve" else {}
        self._before = None
        results, stats = self.runner.run_all(self.requests(docs), wait_live=wait_live)
        out = self.check(docs, results, stats, problems)
        if self.mode != "serve":
            out.waiting = set(stats.pending)
        out.base_problems, out.before = problems, before
        if before and out.complete:
            out.problems += self._sandbox(before, stats)
        return out

    def finish(self, build: Build) -> Build:
        """``build`` with its waiting live snippets run to the end and every region checked."""
        if build.complete:
            return build
        more, stats = self.runner.collect(build.waiting)
        stats.ran = build.stats.ran + stats.ran
        stats.cached = build.stats.cached
        out = self.check(build.docs, {**build.results, **more}, stats, build.base_problems)
        out.base_problems, out.before = build.base_problems, build.before
        if build.before:
            out.problems += self._sandbox(build.before, stats)
        return out

    def parse(self, pages: dict[str, str]) -> dict[str, Document]:
        """Each page read into its regions. Under ``mkdocs serve`` a page whose text did not change
        since the last rebuild keeps its reading (a Document is not changed once read), so an
        edit reads only the page it touched."""
        prefix = self._rel(self.docs_dir)
        docs = {}
        for uri, text in sorted(pages.items()):
            kept = self._parsed.get(uri)
            docs[uri] = kept[1] if kept is not None and kept[0] == text else parse(text, posixpath.join(prefix, uri), uri)
        if self.mode == "serve":
            self._parsed = {uri: (pages[uri], doc) for uri, doc in docs.items()}
        return docs

    def requests(self, docs: dict[str, Document]) -> dict[str, Request]:
        requests: dict[str, Request] = {}
        for doc in docs.values():
            for run in doc.runs:
                old = requests.get(run.snippet, Request())
                requests[run.snippet] = Request(
                    max(filter(None, (old.timeout, run.timeout)), default=None), old.live or run.live,
                    max(filter(None, (old.memory_mb, run.memory_mb)), default=None))
            for tie in doc.ties:
                name = getattr(tie, "snippet", "")
                if name:
                    requests.setdefault(name, Request())
        return requests

    def check(self, docs: dict[str, Document], results: dict[str, SnippetResult], stats: Stats | None = None,
              problems: list[Problem] | None = None, site: dict[str, Document] | None = None) -> Build:
        """Check every region of ``docs`` against ``results`` (no snippet runs here). ``site`` is
        every page of the site, if ``docs`` is only some of them: which snippets run, and which
        run live, is a property of the whole site."""
        sources = {}
        for name in results:
            try:
                sources[name] = self._unchanged(self.snippets_dir / name, lambda path: path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                pass
        out = Build(docs, results, stats or Stats(), sources, self._rel(self.docs_dir), serving=self.mode == "serve")
        out.problems += problems or []
        every = {**(site or {}), **docs}
        runs = [run for doc in every.values() for run in doc.runs]
        live = {run.snippet for run in runs if run.live}
        shown = {run.snippet for run in runs}
        drawn = {f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/{fig}" for name, r in results.items() for fig in r.figures}
        failed = tuple(f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/" for name, r in results.items() if r.error is not None or r.pending)
        for uri, doc in docs.items():
            ctx = Context(doc.path, results, live, shown, uri, drawn, failed)
            page_problems = list(doc.problems)
            for region in doc.regions:
                outcome = region.check(ctx)
                out.outcomes[id(region)] = outcome
                page_problems += outcome.problems
                out.checks += outcome.checks
                out.citations += outcome.citations
            page_problems.sort(key=lambda p: p.line)
            out.page_problems[uri] = page_problems
            out.problems += page_problems
        out.problems += self._unused(every, results)
        _assign_anchors(out)
        return out

    def recheck(self, build: Build, pages: dict[str, str]) -> Build:
        """``pages`` checked against the results of an earlier build (nothing runs)."""
        docs = self.parse(pages)
        missing = {name for doc in docs.values() for name in doc.snippets()} - set(build.results)
        results = dict(build.results)
        if missing:
            more, _ = self.runner.run_all({name: Request() for name in missing})
            results.update(more)
        return self.check(docs, results, build.stats, site=build.docs)

    def _no_pages(self) -> Problem:
        where = self._rel(self.docs_dir)
        if not self.docs_dir.is_dir():
            return Problem(ProblemKind.PROJECT, where, 1, f"there is no docs folder at {self.docs_dir}: "
                                                          "run from the project folder, or pass --root")
        return Problem(ProblemKind.PROJECT, where, 1, f"no Markdown page in {self.docs_dir} ({', '.join(MARKDOWN_SUFFIXES)})")

    def _unused(self, docs: dict[str, Document], results: dict[str, SnippetResult]) -> list[Problem]:
        """Snippets no page runs and figures no page shows: both are work the reader never sees."""
        problems = []
        snippets_rel = self._rel(self.snippets_dir)
        run = {run.snippet for doc in docs.values() for run in doc.runs}
        try:
            names = self._unchanged(self.snippets_dir, lambda folder: tuple(f.name for f in sorted(folder.glob("*.py")))
                                    if folder.is_dir() else ())
        except OSError:  # no snippets folder
            names = ()
        for name in names:
            if not name.startswith("_") and name not in run and name not in results:
                problems.append(Problem(ProblemKind.UNUSED, f"{snippets_rel}/{name}", 1, "no page runs this snippet"))
        shown = {posixpath.normpath(posixpath.join(posixpath.dirname(uri), fig.src))
                 for uri, doc in docs.items() for fig in doc.figures}
        for name, result in sorted(results.items()):
            for fig in result.figures:
                site_path = f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/{fig}"
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

    # -- what a snippet must not change -------------------------------------------------------------
    def _protected(self) -> dict[str, str]:
        """Hashes of every file the build reads besides the project's modules: pages, snippets."""
        found = {}
        for folder in (self.docs_dir, self.snippets_dir):
            if not folder.is_dir():
                continue
            for path in folder.rglob("*"):
                try:
                    if path.is_file():
                        found[self._rel(path)] = sha256(path.read_bytes())
                except OSError:
                    continue
        return found

    def _sandbox(self, before: dict[str, str], stats: Stats) -> list[Problem]:
        if not stats.ran:
            return []
        after = self._protected()
        changed = sorted(set(before) ^ set(after) | {p for p in before if p in after and before[p] != after[p]})
        ran = ", ".join(f"snippets/{name}" for name in sorted(stats.ran))
        return [Problem(ProblemKind.SANDBOX, path, 1,
                        f"changed while the snippets ran ({ran}): a snippet may write only inside its working folder; "
                        "if you edited it yourself meanwhile, run the check again") for path in changed]


def decode_page(data: bytes, path: str) -> tuple[str, Problem | None]:
    """A page's bytes as text (UTF-8, an optional BOM), or a problem naming the file and line."""
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
        return "", Problem(ProblemKind.ENCODING, path, line,
                           f"the page is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}): save it as UTF-8")


def _assign_anchors(build: Build) -> None:
    """Every checked and every quoted value gets a unique anchor from its page, line and position
    in the line (so an edit elsewhere on the page moves only the anchors below it)."""
    slugs: dict[str, str] = {}
    used: set[str] = set()
    for path in sorted({c.path for c in build.checks} | {c.path for c in build.citations}):
        stem = _slug(path.rsplit(".", 1)[0].split("/", 1)[-1] if "/" in path else path.rsplit(".", 1)[0])
        slug, n = stem, 2
        while slug in slugs.values():
            slug, n = f"{stem}-{n}", n + 1
        slugs[path] = slug
    for prefix, rows in (("check", build.checks), ("cited", build.citations)):
        for row in rows:
            anchor = f"{prefix}-{slugs[row.path]}-{row.line}-{row.position}"
            n = 2
            while anchor in used:
                anchor, n = f"{prefix}-{slugs[row.path]}-{row.line}-{row.position}-{n}", n + 1
            used.add(anchor)
            row.anchor = anchor
