"""The MkDocs plugin: event handlers that hand the pages to ``Engine`` and ``stage`` and fail the
build on drift. What it adds to the site is what ``python -m snipcheck render`` writes.

``on_config`` starts a build's live snippets (timings). ``on_files`` checks every page and adds the
figures, the verification page and the notebooks; a problem aborts ``mkdocs build`` there. Pages
needing a live run still going are read last, the first collecting the runs (``files.read_last``;
``on_env`` puts the order back before anything is written). ``on_page_markdown`` swaps each page for
its rendered form, verification rows set aside until ``on_page_content`` (``rows.py``), which makes
sure every tie came out as a linked number (``report/survivors.py``). ``on_post_build`` writes each
notebook's download. Under ``mkdocs serve`` problems are logged and slow snippets run on (``serve.py``).
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.utils.meta import get_data

from ..check.records import Build
from ..engine import Engine
from ..layout import VERIFICATION_PAGE
from ..report.notes import build_notes
from ..report.page import unrendered_ties
from ..report.stage import Staged, stage
from ..report.survivors import Scans
from ..report.urls import download_path
from .files import in_order, read_last, read_pages, resolve_requires, stable_file
from .options import SnipcheckConfig
from .rows import RowsLost, SetAsideRows
from .serve import DirtyPages, Trigger, drop_dirty_notice, published_site_url, serve_logger, stop_on_terminate

log = get_plugin_logger(__name__)


class SnipcheckPlugin(BasePlugin[SnipcheckConfig]):
    def __init__(self) -> None:
        self.serving = self.dirty = False  # `serve --dirty`: the builder rebuilds only pages it finds modified
        self.build: Build | None = None
        self.engine: Engine | None = None
        self.staged = Staged()
        self.notebooks: dict[str, str] = {}  # page src_uri -> its notebook's src_uri
        self.trigger: Trigger | None = None
        self.files: Files | None = None
        self.order: list[str] = []  # the files in MkDocs' order, while the live pages are read last
        self.use_directory_urls, self.generated_verification = True, False
        self.site_url, self.requires = "", {}
        self.rows = SetAsideRows()
        self.dirty_pages: DirtyPages | None = None
        self.scans: Scans | None = None  # each page's HTML read for ties as written, kept by that HTML

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving, self.dirty = command == "serve", dirty
        if self.serving:
            stop_on_terminate()
            if dirty:
                drop_dirty_notice()

    def on_config(self, config):
        root = Path(config.config_file_path).resolve().parent
        docs = Path(config.docs_dir).resolve().relative_to(root).as_posix()
        if self.engine is None or self.engine.root != root:  # kept across serve rebuilds: live results, background runs
            self.engine = Engine(
                root,
                docs,
                self.config.snippets_dir,
                self.config.cache_dir,
                check_determinism=self.config.check_determinism,
                serving=self.serving,
                serve_wait=self.config.serve_wait,
                warn=lambda message: log.warning(message),
            )
            self.dirty_pages = DirtyPages(root, self.engine.docs_dir, self.engine.snippets_dir)
            self.scans = Scans(root / self.config.cache_dir / "scans")
            self.rows = SetAsideRows(root / self.config.cache_dir / "anchors")
        self.engine.start_live()  # a build's measurements start now, beside the rest of MkDocs' start-up
        return config

    def on_serve(self, server, *, config, builder):
        """An edited snippet rebuilds the site, and so does one that ends in the background."""
        self.trigger = Trigger(self.engine.root / self.config.cache_dir / "serve-trigger")
        self.engine.on_background_done(lambda name: self.trigger.touch_when_watched(server))
        server.watch(str(self.trigger.path), recursive=False)
        if self.engine.snippets_dir.is_dir():
            server.watch(str(self.engine.snippets_dir))
        if self.engine.take_unannounced():  # ended during the first build, before anyone listened
            self.trigger.touch_when_watched(server)
        return server

    def on_shutdown(self) -> None:
        if self.engine is not None:
            self.engine.stop()

    @event_priority(100)  # before mkdocs-jupyter and search see the files
    def on_files(self, files: Files, *, config) -> Files:
        pages, unreadable = read_pages(files, self.engine.docs_prefix)
        # A build does not wait here for its live snippets (``_complete`` does, at the latest in on_env).
        build = self.engine.build(pages, read_problems=unreadable, wait_live=self.serving)
        self.files, self.use_directory_urls, self.site_url = files, config.use_directory_urls, config.site_url or ""
        self.requires = resolve_requires(self.config.notebook_requires, files, published_site_url(config, self.serving))
        self.generated_verification = files.get_file_from_path(VERIFICATION_PAGE) is None
        before = self.staged.pages
        self._take(build)
        dirty = self.serving and self.dirty
        if dirty:
            self.dirty_pages.mark(files, before, self.staged.pages, config, build.results)
        src_dir = self.engine.root / self.config.cache_dir / "site"
        for src_uri, data in self.staged.files.items():
            if src_uri.endswith(".ipynb") or dirty:
                files.append(stable_file(src_dir, src_uri, data, config))
            else:
                files.append(File.generated(config, src_uri, content=data))
        self.order = read_last(files, lambda f: build.needs(f.src_uri) or f.src_uri == VERIFICATION_PAGE) if not build.complete else []
        return files

    def _take(self, build: Build) -> None:
        """Make ``build`` the current one: report it, fail on its problems (a build), stage it."""
        self.build = build
        if build.complete:  # once per build: its summary, the sandbox's gaps, the runs never cached
            for level, message in build_notes(self.engine, build):
                getattr(log, level)(message)
        self._fail_or_log(build.problems, f"snipcheck found {len(build.problems)} problem(s)")
        self.staged = stage(
            build,
            notebooks_dir=self.config.notebooks_dir,
            use_directory_urls=self.use_directory_urls,
            verification=self.generated_verification,
            site_url=self.site_url,
            requires=self.requires,
            previous=self.staged,
        )
        self.notebooks = self.staged.notebooks

    def _fail_or_log(self, problems, summary: str) -> None:
        """A build fails on ``problems``; a served site logs them and goes on."""
        if problems and not self.serving:
            raise PluginError(f"{summary}:\n" + "\n".join(str(p) for p in problems))
        for problem in problems:
            serve_logger().error(str(problem))

    def _complete(self) -> None:
        """Wait for the live snippets still running, check them, swap their figures in."""
        if self.build is None or self.build.complete:
            return
        placeholders = self.staged.placeholders
        self._take(self.engine.finish(self.build))
        for src_uri in placeholders:
            file = self.files.get_file_from_path(src_uri)
            if file is not None and src_uri in self.staged.files:
                file.content_bytes = self.staged.files[src_uri]

    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        if self.build is None:
            return markdown
        uri = page.file.src_uri
        verification = uri == VERIFICATION_PAGE and self.generated_verification
        if self.build.needs(uri) or verification:
            self._complete()
        if verification:
            body, _ = get_data(self.staged.files[VERIFICATION_PAGE].decode("utf-8"))  # MkDocs has read the front matter
            # MkDocs checks links against the anchors it found while rendering: the rows' anchors
            # are added back with the rows (a builder without that record renders them in full).
            return self.rows.set_aside(body) if hasattr(page, "present_anchor_ids") else body
        if uri not in self.staged.pages:
            return markdown
        body, _ = get_data(self.staged.pages[uri])  # MkDocs has read the front matter
        return body

    def on_page_content(self, html: str, *, page, config, files) -> str:
        uri = page.file.src_uri
        if uri == VERIFICATION_PAGE and self.generated_verification and self.rows.pending:
            try:
                html, found = self.rows.put_back(html)
            except RowsLost as exc:
                raise PluginError(str(exc)) from None
            page.present_anchor_ids = (page.present_anchor_ids or set()) | found
        if uri in self.notebooks.values():
            page.meta["search"] = {"exclude": True}  # the same code is on the section page
        if self.build is not None and uri in self.build.docs:
            missing = unrendered_ties(self.build, uri, html, self.scans.visible_ties)
            self._fail_or_log(missing, f"snipcheck: {len(missing)} tie(s) not shown as a checked number")
        return html

    @event_priority(100)
    def on_env(self, env, *, config, files):
        self._complete()  # every page has been read; nothing is written before this returns
        in_order(files, self.order)
        return env

    def on_post_build(self, *, config) -> None:
        """Each notebook's download (mkdocs-jupyter's ``include_source``) as downloaded: absolute links."""
        if not self.dirty:  # every page was read for ties as written: what no page showed goes
            self.scans.evict_unused()
        for nb_uri, data in self.staged.downloads.items():
            target = Path(config.site_dir) / download_path(nb_uri, self.use_directory_urls)
            if target.is_file() and target.read_bytes() != data:
                target.write_bytes(data)
