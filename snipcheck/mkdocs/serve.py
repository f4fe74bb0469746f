"""What ``mkdocs serve`` (and ``properdocs serve``) needs beyond a build: problems logged instead
of aborting, a rebuild when a snippet ends in the background, and, under ``--dirty``, every page
whose rendered form changed marked for rebuilding."""

from __future__ import annotations

import hashlib
import logging
import signal
import sys
import threading
import time
from pathlib import Path

# The loggers a builder reports its build on: MkDocs', and ProperDocs' (the MkDocs fork).
BUILD_LOGGERS = ("mkdocs.commands.build", "properdocs.commands.build")


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is at the time (not the one at the first message)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def serve_logger() -> logging.Logger:
    """Problems under ``mkdocs serve``: printed loudly, but outside the ``mkdocs`` logger, whose
    strict mode would otherwise abort the preview and hide the page that shows them."""
    logger = logging.getLogger("snipcheck.serve")
    if not logger.handlers:
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("ERROR    -  snipcheck: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    return logger


def not_the_dirty_notice(record: logging.LogRecord) -> bool:
    """MkDocs (and ProperDocs) warn on every ``--dirty`` rebuild that pages it did not rebuild may
    be stale, which would abort a strict preview. Under ``serve --dirty`` the plugin has the
    builder rebuild every page whose rendered form changed, and every page when mkdocs.yml, the
    theme's overrides or a watched file other than the docs and snippets changed
    (``DirtyPages``), so the notice is dropped there, and only there. (A file the build no longer
    adds, a figure no longer drawn, stays in the preview's folder until the server restarts.)"""
    return not str(record.msg).startswith("A 'dirty' build is being performed")


def drop_dirty_notice() -> None:
    """Filter the dirty-build notice out of every builder's build logger."""
    for name in BUILD_LOGGERS:
        build_log = logging.getLogger(name)
        if not_the_dirty_notice not in build_log.filters:
            build_log.addFilter(not_the_dirty_notice)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def stop_on_terminate() -> None:
    """A terminated server (an editor, a script or CI stopping it) stops its snippets as Ctrl-C
    does: the builder shuts down on KeyboardInterrupt and calls on_shutdown."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupt)


def published_site_url(config, serving: bool) -> str:
    """``config.site_url``, but under ``mkdocs serve`` (``serving``) the one the configuration file
    gives, which serve replaces with its own address (a port that changes from one start to the
    next). A notebook's set-up cell installs the package from the published site, in a preview as
    in the build: the notebook is then the same file, and mkdocs-jupyter's cache of its conversion
    serves both."""
    if not serving or not config.config_file_path:
        return config.site_url or ""
    from mkdocs.utils.yaml import yaml_load  # MkDocs' own reader: ``!ENV`` and ``INHERIT`` as a build reads them

    with open(config.config_file_path, "rb") as file:
        return str(yaml_load(file).get("site_url") or config.site_url or "")


class Trigger:
    """A watched file the plugin touches so that the server rebuilds (a snippet that ended in the
    background)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()

    def touch_when_watched(self, server) -> None:
        """Touch the trigger; before the watcher runs (it takes its first look at the files when
        the server starts) a touch would go unseen, so until then a thread waits for it."""
        if server.observer.is_alive():
            self.path.touch()
            return

        def later() -> None:
            deadline = time.monotonic() + 60
            while not server.observer.is_alive() and time.monotonic() < deadline:
                time.sleep(0.05)
            # A new modification time, even on a file system that keeps whole seconds.
            time.sleep(1.0)
            self.path.touch()

        threading.Thread(target=later, name="snipcheck-trigger", daemon=True).start()


class DirtyPages:
    """``serve --dirty`` rebuilds a page only when its source is newer than its HTML. A page whose
    rendered form changed while its source did not (a snippet it runs was edited, a run ended, a
    tie's value changed) loses its HTML, so that the builder rebuilds it too; and when something
    every page depends on changed (mkdocs.yml, the theme's overrides, the hooks, any other watched
    file but the docs, the snippets and what they import), every page does."""

    def __init__(self, root: Path, docs_dir: Path, snippets_dir: Path) -> None:
        self.root, self.skip = root, {snippets_dir, docs_dir}
        self._shared = ""  # what every page depends on, at the last build

    def mark(self, files, before: dict[str, str], after: dict[str, str], config, results) -> None:
        shared = self.shared_fingerprint(config, results)
        everything, self._shared = shared != self._shared, shared
        for file in files.documentation_pages():
            if everything or (file.src_uri in after and before.get(file.src_uri) != after[file.src_uri]):
                if file.abs_dest_path:
                    Path(file.abs_dest_path).unlink(missing_ok=True)

    def shared_fingerprint(self, config, results) -> str:
        root = self.root
        paths = [Path(config.config_file_path)] + ([Path(config.theme.custom_dir)] if config.theme.custom_dir else [])
        paths += [root / entry for entry in config.watch]
        # A folder the snippets read from (attn) reaches the pages through them: already followed.
        read = {rel.split("/", 1)[0] for result in results.values() for rel in result.imported if "/" in rel}
        digest = hashlib.sha256()
        for path in paths:
            path = path.resolve()
            if path in self.skip or (path.is_dir() and path.parent == root and path.name in read):
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
