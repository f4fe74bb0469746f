"""The MkDocs plugin: a thin layer that hands the pages to ``Engine`` and fails the build on drift.

- ``on_files`` checks every page at once (so one run lists every drift), adds the figures the
  snippets drew and the generated verification page;
- ``on_page_markdown`` swaps each page for its rendered form (code included, ties rendered);
- ``on_env`` runs after every page is read and before anything is written: any problem aborts
  ``mkdocs build`` there, strict or not, so a failing build never leaves a site that looks good.
  Under ``mkdocs serve`` the problems are logged and shown at the top of the page instead.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.utils.meta import get_data

from .engine import Build, Engine
from .render import VERIFICATION_PAGE

log = get_plugin_logger(__name__)


class SnipcheckConfig(Config):
    snippets_dir = config_options.Type(str, default="snippets")
    cache_dir = config_options.Type(str, default=".cache/snipcheck")
    check_determinism = config_options.Type(bool, default=True)


class SnipcheckPlugin(BasePlugin[SnipcheckConfig]):
    def __init__(self) -> None:
        self.serving = False
        self.build: Build | None = None
        self.engine: Engine | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def on_config(self, config):
        root = Path(config.config_file_path).resolve().parent
        docs = Path(config.docs_dir).resolve().relative_to(root).as_posix()
        self.engine = Engine(root, docs, self.config.snippets_dir, self.config.cache_dir,
                             check_determinism=self.config.check_determinism)
        return config

    @event_priority(100)  # before mkdocs-jupyter and search see the files
    def on_files(self, files: Files, *, config) -> Files:
        pages = {f.src_uri: f.content_string for f in files.documentation_pages() if f.src_uri != VERIFICATION_PAGE}
        self.build = build = self.engine.build(pages)
        log.info(f"{len(build.stats.ran)} snippets run, {len(build.stats.cached)} from cache; "
                 f"{len(build.checks)} numbers checked, {len(build.citations)} quoted, {len(build.problems)} problems")
        for src_uri, data in build.figures().items():
            files.append(File.generated(config, src_uri, content=data))
        if files.get_file_from_path(VERIFICATION_PAGE) is None:
            files.append(File.generated(config, VERIFICATION_PAGE, content=build.verification()))
        return files

    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        if self.build is None or page.file.src_uri not in self.build.docs:
            return markdown
        body, _ = get_data(self.build.rendered(page.file.src_uri))
        return body

    def on_env(self, env, *, config, files):
        if self.build is not None and self.build.problems:
            report = self.build.report()
            if self.serving:
                for problem in self.build.problems:
                    log.error(str(problem))
            else:
                raise PluginError(f"snipcheck found {len(self.build.problems)} problem(s):\n{report}")
        return env
