"""The MkDocs plugin: a thin layer that hands the pages to ``Engine`` and ``stage`` and fails the
build on drift. What it adds to the site is what ``python -m snipcheck render`` writes.

- ``on_config`` starts the live snippets (timings) of a build, when every other snippet comes from
  the cache, so they measure beside MkDocs' own start-up instead of before or after it;
- ``on_files`` checks every page at once (so one run lists every drift), adds the figures the
  snippets drew, the generated verification page and one notebook per page. Any problem aborts
  ``mkdocs build`` right there, strict or not, before a page is rendered or a file written, so a
  failing build never leaves a site that looks good. Live snippets still running are collected by
  the first page that shows or checks what they give (or, at the latest, in ``on_env``, after
  every page is read and before anything is written), and their problems abort the build there;
- ``on_page_markdown`` swaps each page for its rendered form (code included, ties rendered); on
  the verification page it sets the row tables (HTML already) aside from Markdown, and
  ``on_page_content`` puts them back with their anchors;
- ``on_page_content`` makes sure every tie came out of Markdown as a number linked to its check
  (a tie the parser let through into code, math or raw HTML fails here, with its file:line);
- ``on_post_build`` puts each notebook's download (the ``.ipynb`` a notebook page offers) in its
  downloaded form: links absolute under ``site_url``, so they work on the reader's disk.

``notebook_requires`` (module -> pip requirement) gives each notebook a first cell that installs
what its snippets import when it is missing; a requirement that is a path of the site (a glob is
allowed: ``downloads/attn-*.whl``) must match one file of the build, and becomes its URL under
``site_url``.

Under ``mkdocs serve`` the problems are logged and shown at the top of each affected page
instead, and serving goes on. The plugin object (and so the engine) lives across rebuilds: a live
snippet measured earlier in the session is reused while its inputs are unchanged, and a snippet
still running after ``serve_wait`` seconds goes on in the background; the page says so (its
figures stand in as placeholders), and the site rebuilds when it finishes, so the server never
waits on a slow or looping snippet. Under ``mkdocs serve --dirty`` MkDocs rebuilds only pages whose
source is newer than their HTML; the plugin adds the pages whose rendered form changed (see
``_mark_changed``) and writes the files it adds only when their bytes change.
"""
from __future__ import annotations

import fnmatch
import hashlib
import logging
import posixpath
import re
import secrets
import signal
import sys
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.utils.meta import get_data

from .engine import Build, Engine, decode_page
from .site import Staged, download_path, stage
from .render import VERIFICATION_PAGE, unrendered_ties

log = get_plugin_logger(__name__)
_ROW_BLOCK = re.compile(r'^<details class="snipcheck-rows">\n.*?^</details>$', re.MULTILINE | re.DOTALL)


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is at the time (not the one at the first message)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def _serve_logger() -> logging.Logger:
    """Problems under ``mkdocs serve``: printed loudly, but outside the ``mkdocs`` logger, whose
    strict mode would otherwise abort the preview and hide the page that shows them."""
    logger = logging.getLogger("snipcheck.serve")
    if not logger.handlers:
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("ERROR    -  snipcheck: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    return logger


class _Anchors(HTMLParser):
    """The anchors of some HTML as MkDocs counts them: every ``id``, and ``name`` on ``<a>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        for key, value in attrs:
            if value is not None and (key == "id" or (key == "name" and tag == "a")):
                self.found.add(value)


def _anchors(html: str) -> set[str]:
    parser = _Anchors()
    parser.feed(html)
    parser.close()
    return parser.found


def _not_the_dirty_notice(record: logging.LogRecord) -> bool:
    """MkDocs warns on every ``--dirty`` rebuild that pages it did not rebuild may be stale, which
    would abort a strict preview. Under ``mkdocs serve --dirty`` the plugin has MkDocs rebuild every
    page whose rendered form changed, and every page when mkdocs.yml, the theme's overrides or a
    watched file other than the docs and snippets changed (``_mark_changed``), so the notice is
    dropped there, and only there. (A file the build no longer adds, a figure no longer drawn, stays
    in the preview's folder until the server restarts.)"""
    return not str(record.msg).startswith("A 'dirty' build is being performed")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


class SnipcheckConfig(Config):
    snippets_dir = config_options.Type(str, default="snippets")
    cache_dir = config_options.Type(str, default=".cache/snipcheck")
    check_determinism = config_options.Type(bool, default=True)
    notebooks_dir = config_options.Type(str, default="notebooks")  # site folder; empty: no notebooks
    serve_wait = config_options.Type((int, float), default=5.0)  # serve: seconds to wait for a run
    notebook_requires = config_options.Type(dict, default={})  # module -> pip requirement (see above)


class SnipcheckPlugin(BasePlugin[SnipcheckConfig]):
    def __init__(self) -> None:
        self.serving = False
        self.build: Build | None = None
        self.engine: Engine | None = None
        self.staged = Staged()
        self.notebooks: dict[str, str] = {}  # page src_uri -> its notebook's src_uri
        self.trigger: Path | None = None
        self.files: Files | None = None
        self.use_directory_urls = True
        self.generated_verification = False
        self.site_url = ""
        self.requires: dict[str, str] = {}
        self.dirty = False  # `mkdocs serve --dirty`: MkDocs rebuilds only the pages it finds modified
        self._shared = ""  # serve --dirty: what every page depends on, at the last build (_mark_changed)
        self._rows: list[str] = []  # the verification page's row tables, set aside from Markdown
        self._rows_pattern: re.Pattern | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        self.dirty = dirty
        if self.serving and dirty:
            build_log = logging.getLogger("mkdocs.commands.build")
            if _not_the_dirty_notice not in build_log.filters:
                build_log.addFilter(_not_the_dirty_notice)
        if (self.serving and threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL):
            # A terminated server (an editor, a script or CI stopping it) stops its snippets as
            # Ctrl-C does: MkDocs shuts down on KeyboardInterrupt and calls on_shutdown.
            signal.signal(signal.SIGTERM, _interrupt)

    def on_config(self, config):
        root = Path(config.config_file_path).resolve().parent
        docs = Path(config.docs_dir).resolve().relative_to(root).as_posix()
        if self.engine is None or self.engine.root != root:  # kept across serve rebuilds: live results, background runs
            self.engine = Engine(root, docs, self.config.snippets_dir, self.config.cache_dir,
                                 check_determinism=self.config.check_determinism,
                                 mode="serve" if self.serving else "build", serve_wait=self.config.serve_wait,
                                 warn=lambda message: log.warning(message))
        self.engine.start_live()  # a build's measurements start now, beside the rest of MkDocs' start-up
        return config

    def on_serve(self, server, *, config, builder):
        """An edited snippet rebuilds the site, and so does a snippet that finishes in the
        background (it touches a watched file)."""
        self.trigger = self.engine.root / self.config.cache_dir / "serve-trigger"
        self.trigger.parent.mkdir(parents=True, exist_ok=True)
        self.trigger.touch()
        self.engine.runner.on_background_done = lambda name: self._touch_when_watched(server)
        server.watch(str(self.trigger), recursive=False)
        if self.engine.snippets_dir.is_dir():
            server.watch(str(self.engine.snippets_dir))
        if self.engine.runner.take_unannounced():  # ended during the first build, before anyone listened
            self._touch_when_watched(server)
        return server

    def _touch_when_watched(self, server) -> None:
        """Touch the trigger so that the server rebuilds; before the watcher runs (it takes its
        first look at the files when the server starts) a touch would go unseen, so until then a
        thread waits for it."""
        if server.observer.is_alive():
            self.trigger.touch()
            return

        def later() -> None:
            deadline = time.monotonic() + 60
            while not server.observer.is_alive() and time.monotonic() < deadline:
                time.sleep(0.05)
            # A new modification time, even on a file system that keeps whole seconds.
            time.sleep(1.0)
            self.trigger.touch()

        threading.Thread(target=later, name="snipcheck-trigger", daemon=True).start()

    def on_shutdown(self) -> None:
        if self.engine is not None:
            self.engine.runner.stop()

    @event_priority(100)  # before mkdocs-jupyter and search see the files
    def on_files(self, files: Files, *, config) -> Files:
        pages, unreadable = {}, []
        for f in files.documentation_pages():
            if f.src_uri == VERIFICATION_PAGE:
                continue
            text, problem = decode_page(f.content_bytes, posixpath.join(self.engine._rel(self.engine.docs_dir), f.src_uri))
            if problem is not None:
                unreadable.append(problem)
            else:
                pages[f.src_uri] = text
        # A build does not wait here for its live snippets (timings): they run on beside the
        # rendering of the pages that do not need them, and are collected by the first page that
        # does (``_complete``), at the latest before any file is written (``on_env``).
        build = self.engine.build(pages, read_problems=unreadable, wait_live=self.serving)
        self.files, self.use_directory_urls = files, config.use_directory_urls
        self.site_url = config.site_url or ""
        self.requires = self._requires(files)
        self.generated_verification = files.get_file_from_path(VERIFICATION_PAGE) is None
        before = self.staged.pages
        self._take(build)
        dirty = self.serving and self.dirty
        if dirty:
            self._mark_changed(files, before, config)
        for src_uri, data in self.staged.files.items():
            if src_uri.endswith(".ipynb") or dirty:
                files.append(self._stable_file(src_uri, data, config))
            else:
                files.append(File.generated(config, src_uri, content=data))
        return files

    def _mark_changed(self, files: Files, before: dict[str, str], config) -> None:
        """``mkdocs serve --dirty`` rebuilds a page only when its source is newer than its HTML. A
        page whose rendered form changed while its source did not (a snippet it runs was edited, a
        run ended, a tie's value changed) loses its HTML, so that MkDocs rebuilds it too; and when
        something every page depends on changed (mkdocs.yml, the theme's overrides, the hooks, any
        other watched file but the docs, the snippets and what they import), every page does."""
        shared = self._shared_fingerprint(config)
        everything, self._shared = shared != self._shared, shared
        for file in files.documentation_pages():
            if everything or (file.src_uri in self.staged.pages and before.get(file.src_uri) != self.staged.pages[file.src_uri]):
                if file.abs_dest_path:
                    Path(file.abs_dest_path).unlink(missing_ok=True)

    def _shared_fingerprint(self, config) -> str:
        root = self.engine.root
        paths = [Path(config.config_file_path)] + ([Path(config.theme.custom_dir)] if config.theme.custom_dir else [])
        paths += [root / entry for entry in config.watch]
        skip = {self.engine.snippets_dir, self.engine.docs_dir}
        # A folder the snippets read from (attn) reaches the pages through them: already followed.
        read = {rel.split("/", 1)[0] for result in (self.build.results.values() if self.build else ())
                for rel in result.imported if "/" in rel}
        digest = hashlib.sha256()
        for path in paths:
            path = path.resolve()
            if path in skip or (path.is_dir() and path.parent == root and path.name in read):
                continue
            found = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
            for file in found:
                if "__pycache__" in file.parts:
                    continue
                try:
                    stat = file.stat()
                except OSError:
                    continue
                digest.update(f"{file}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
        return digest.hexdigest()

    def _requires(self, files: Files) -> dict[str, str]:
        """``notebook_requires`` with each path of the site made an absolute URL (see above)."""
        out = {}
        for module, spec in self.config.notebook_requires.items():
            spec = str(spec).strip()
            if "/" in spec and "://" not in spec:
                pattern = spec.lstrip("/")
                matches = sorted(f.src_uri for f in files if fnmatch.fnmatchcase(f.src_uri, pattern))
                if len(matches) != 1:
                    raise PluginError(f"snipcheck: notebook_requires {module}: {spec!r} matches "
                                      f"{len(matches)} files of the site ({', '.join(matches) or 'none'}); it must match one")
                if not self.site_url:
                    raise PluginError(f"snipcheck: notebook_requires {module}: {spec!r} is a file of the site, and a "
                                      "downloaded notebook needs its absolute URL: set site_url")
                spec = self.site_url.rstrip("/") + "/" + files.get_file_from_path(matches[0]).url
            out[str(module)] = spec
        return out

    def _take(self, build: Build) -> None:
        """Make ``build`` the current one: report it, fail on its problems (a build), stage it."""
        self.build = build
        if build.complete:
            log.info(f"{len(build.stats.ran)} snippets run, {len(build.stats.cached)} from cache; "
                     f"{len(build.checks)} numbers checked, {len(build.citations)} quoted, {len(build.problems)} problems"
                     + (f"; {len(build.stats.pending)} still running" if build.stats.pending else "")
                     + ("; each new result was run twice, side by side, and compared" if self.engine.runner.check_determinism
                        else "; each snippet ran once (SNIPCHECK_TWICE=true: twice, compared)"))
        if build.problems:
            if not self.serving:
                raise PluginError(f"snipcheck found {len(build.problems)} problem(s):\n{build.report()}")
            for problem in build.problems:
                _serve_logger().error(str(problem))
        self.staged = stage(build, notebooks_dir=self.config.notebooks_dir, use_directory_urls=self.use_directory_urls,
                            verification=self.generated_verification, site_url=self.site_url, requires=self.requires)
        self.notebooks = self.staged.notebooks

    def _complete(self) -> None:
        """Wait for the live snippets still running, check what they gave, and put the figures
        they drew in place of the placeholders."""
        if self.build is None or self.build.complete:
            return
        placeholders = self.staged.placeholders
        self._take(self.engine.finish(self.build))
        for src_uri in placeholders:
            file = self.files.get_file_from_path(src_uri)
            if file is not None and src_uri in self.staged.files:
                file.content_bytes = self.staged.files[src_uri]

    def _stable_file(self, src_uri: str, data: bytes, config) -> File:
        """A file the build adds, as a real file under a source folder of its own, rewritten only
        when its bytes change: mkdocs-jupyter reads notebooks by path, and ``mkdocs serve --dirty``
        rebuilds a page (the verification page) or copies a figure only when it is newer."""
        src_dir = self.engine.root / self.config.cache_dir / "site"
        path = src_dir / src_uri
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        return File(src_uri, str(src_dir), config.site_dir, config.use_directory_urls)

    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        if self.build is None:
            return markdown
        uri = page.file.src_uri
        if self.build.needs(uri) or (uri == VERIFICATION_PAGE and self.generated_verification):
            self._complete()
        if uri == VERIFICATION_PAGE and self.generated_verification:
            body, _ = get_data(self.staged.files[VERIFICATION_PAGE].decode("utf-8"))  # MkDocs has read the front matter
            # MkDocs checks links against the anchors it found while rendering: the rows' anchors
            # are added back with the rows (a builder without that record renders them in full).
            return self._set_aside_rows(body) if hasattr(page, "present_anchor_ids") else body
        if uri not in self.staged.pages:
            return markdown
        body, _ = get_data(self.staged.pages[uri])  # MkDocs has read the front matter
        return body

    def _set_aside_rows(self, body: str) -> str:
        """The verification page's row tables are HTML already, which Markdown would only parse and
        write out unchanged (most of the time it spends on the page): each is set aside behind a
        placeholder here and put back, as written, by ``on_page_content``."""
        self._rows = []
        token = secrets.token_hex(8)

        def set_aside(match: re.Match) -> str:
            self._rows.append(match.group(0))
            return f"<!-- snipcheck-rows {token} {len(self._rows) - 1} -->"

        self._rows_pattern = re.compile(rf"<!-- snipcheck-rows {token} (\d+) -->")
        return _ROW_BLOCK.sub(set_aside, body)

    def _put_back_rows(self, html: str) -> str:
        found = []

        def put_back(match: re.Match) -> str:
            found.append(int(match.group(1)))
            return self._rows[int(match.group(1))]

        html = self._rows_pattern.sub(put_back, html)
        if sorted(found) != list(range(len(self._rows))):
            raise PluginError(f"snipcheck: the verification page lost row tables in Markdown: put back {sorted(found)} "
                              f"of {len(self._rows)}")
        return html

    def on_page_content(self, html: str, *, page, config, files) -> str:
        if page.file.src_uri == VERIFICATION_PAGE and self.generated_verification and self._rows_pattern is not None:
            html, self._rows_pattern = self._put_back_rows(html), None
            page.present_anchor_ids = (page.present_anchor_ids or set()) | _anchors("".join(self._rows))
        if page.file.src_uri in self.notebooks.values():
            page.meta["search"] = {"exclude": True}  # the same code is on the section page
        if self.build is not None and page.file.src_uri in self.build.docs:
            missing = unrendered_ties(self.build, page.file.src_uri, html)
            if missing:
                report = "\n".join(str(p) for p in missing)
                if not self.serving:
                    raise PluginError(f"snipcheck: {len(missing)} tie(s) did not render as a number:\n{report}")
                for problem in missing:
                    _serve_logger().error(str(problem))
        return html

    @event_priority(100)
    def on_env(self, env, *, config, files):
        self._complete()  # every page has been read; nothing is written before this returns
        return env

    def on_post_build(self, *, config) -> None:
        """Each notebook's ``.ipynb`` download (copied beside its page by mkdocs-jupyter's
        ``include_source``) replaced by the notebook as downloaded: absolute links."""
        for nb_uri, data in self.staged.downloads.items():
            target = Path(config.site_dir) / download_path(nb_uri, self.use_directory_urls)
            if target.is_file() and target.read_bytes() != data:
                target.write_bytes(data)
