"""MkDocs hook: a page whose Markdown did not change is not converted to HTML again.

MkDocs converts every page from Markdown on every build, and on every rebuild under plain
``mkdocs serve``; about half of it goes to highlighting the code blocks. Here a page's
conversion is kept in ``.cache/render`` and reused while everything it depends on is the same.
The key covers:

- the page's Markdown as the builder is about to convert it (after every plugin, the snipcheck
  plugin's rendered ties and outputs included), its source path and its URL;
- every file of the build, with its URL (a link is resolved against them) and the validation
  settings (which decide what a broken link logs);
- the Markdown extensions and their settings, the installed versions of every distribution that
  provides a loaded extension or the builder itself, and the source of each extension module
  and of this hook (an edited local extension, ``toolchain/mdmathml.py`` say, converts afresh).

What the conversion logged (a broken link, an unknown anchor) is kept with it and logged again
when it is reused, so a strict build fails on a reused page as it did on the converted one.
Only written pages (``.md``) are kept: the notebook pages are converted by mkdocs-jupyter, which
has a cache of its own. A cache entry that cannot be read is ignored and written afresh.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import sys
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.toc import AnchorLink, TableOfContents

FORMAT = 1  # the layout of an entry; a new layout misses every old entry


def _extension_modules(extensions) -> list[str]:
    """The module of each Markdown extension, named as MkDocs names it (an entry point's name,
    ``abbr`` or ``mathml``, or a dotted path, ``pymdownx.superfences``)."""
    points = {point.name: point.value for point in importlib.metadata.entry_points(group="markdown.extensions")}
    modules = []
    for extension in extensions:
        if not isinstance(extension, str):
            modules.append(type(extension).__module__)
            continue
        modules.append(points.get(extension, extension).split(":")[0])
    return modules


def _source_digest(module_name: str) -> str:
    """The sha256 of a module's source; for a module outside the installed packages (one of the
    project's own), of every Python file beside it too."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return f"{module_name}:missing"
    path = getattr(module, "__file__", None)
    if not path or not os.path.isfile(path):
        return f"{module_name}:no-file"
    files = [Path(path)]
    if "site-packages" not in Path(path).parts:
        files = sorted(Path(path).parent.glob("*.py"))
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return f"{module_name}:{digest.hexdigest()}"


def _installed() -> list[str]:
    """The distributions installed on ``sys.path``, by the names of their metadata folders
    (``mkdocs-1.6.1.dist-info``: name and version, without parsing any metadata)."""
    found = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found.update(n for n in names if n.endswith((".dist-info", ".egg-info")))
    return sorted(found)


_fingerprints: dict[int, tuple[object, str]] = {}  # id(config) -> (config, fingerprint): one per build


def renderer_fingerprint(config) -> str:
    """What decides a conversion beyond the page: extensions, settings, installed versions, sources."""
    kept = _fingerprints.get(id(config))
    if kept is not None and kept[0] is config:
        return kept[1]
    extensions = config["markdown_extensions"]
    parts = {
        "format": FORMAT,
        "extensions": [repr(e) for e in extensions],
        "configs": json.dumps(config["mdx_configs"] or {}, sort_keys=True, default=repr),
        "validation": repr(config.get("validation")),
        "directory_urls": config.get("use_directory_urls"),
        # Every installed distribution: an extension's own dependencies (latex2mathml, pygments)
        # and the builder (MkDocs or its fork) among them.
        "versions": _installed(),
        "sources": [_source_digest(m) for m in _extension_modules(extensions)],
        "hook": hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
    }
    fingerprint = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
    _fingerprints.clear()
    _fingerprints[id(config)] = (config, fingerprint)
    return fingerprint


def page_key(markdown: str, page, files, fingerprint: str) -> str:
    listing = sorted((f.src_uri, f.url, f.dest_uri) for f in files)
    digest = hashlib.sha256()
    for part in (fingerprint, page.file.src_uri, page.file.url, json.dumps(listing), markdown):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def _toc_to_json(items) -> list:
    return [{"title": a.title, "id": a.id, "level": a.level, "children": _toc_to_json(a.children)} for a in items]


def _toc_from_json(items) -> list[AnchorLink]:
    links = []
    for item in items:
        link = AnchorLink(item["title"], item["id"], item["level"])
        link.children = _toc_from_json(item["children"])
        links.append(link)
    return links


class _Recorder(logging.Handler):
    """Keeps every record logged while a page is converted (they still reach their loggers)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record not in self.records:
            self.records.append(record)


def _record(page) -> dict:
    return {
        "content": page.content,
        "toc": _toc_to_json(page.toc),
        "title": page._title_from_render,
        "anchors": sorted(page.present_anchor_ids or ()),
        "links": {f.src_uri: links for f, links in (page.links_to_anchors or {}).items()},
    }


def _apply(entry: dict, page, files) -> bool:
    """Give ``page`` the kept conversion; False when a file it links to is gone (convert again)."""
    links = {}
    for src_uri, anchors in entry["links"].items():
        target = files.get_file_from_path(src_uri)
        if target is None:
            return False
        links[target] = anchors
    toc = TableOfContents(_toc_from_json(entry["toc"]))
    if len(toc):
        toc.items[0].active = True  # as MkDocs marks it
    page.content, page.toc, page._title_from_render = entry["content"], toc, entry["title"]
    page.present_anchor_ids = set(entry["anchors"])
    page.links_to_anchors = links
    for name, level, message in entry["log"]:
        logging.getLogger(name).log(level, message)
    return True


class RenderCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()  # the keys this build looked up

    def evict_unused(self) -> None:
        """Delete every entry this build did not look up (call only after a build that looked up
        every written page: a dirty rebuild looks up only those it rebuilds)."""
        for path in self.folder.glob("*.json"):
            if path.stem not in self.used:
                path.unlink(missing_ok=True)

    def read(self, key: str) -> dict | None:
        try:
            entry = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and entry.get("format") == FORMAT else None

    def write(self, key: str, entry: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{key}.json"
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"format": FORMAT, **entry}), encoding="utf-8")
        os.replace(temporary, path)  # a reader sees the whole entry or none

    def wrap(self, page, markdown: str, config, files) -> None:
        """Replace ``page.render`` (for this page only) by a lookup, converting on a miss."""
        key = page_key(markdown, page, files, renderer_fingerprint(config))
        self.used.add(key)
        convert = page.render

        def render(config, files):
            entry = self.read(key)
            if entry is not None and _apply(entry, page, files):
                return
            recorder = _Recorder()
            loggers = [logging.getLogger(), logging.getLogger("mkdocs"), logging.getLogger("markdown")]
            for logger in loggers:
                logger.addHandler(recorder)
            try:
                convert(config, files)
            finally:
                for logger in loggers:
                    logger.removeHandler(recorder)
            log = [(r.name, r.levelno, r.getMessage()) for r in recorder.records if r.levelno >= logging.INFO]
            self.write(key, {**_record(page), "log": log})

        page.render = render


_build: dict[str, object] = {}  # this build's cache and the number of written pages it holds


def on_files(files, config):
    folder = Path(config.config_file_path).resolve().parent / ".cache" / "render"
    _build["cache"] = RenderCache(folder)
    _build["pages"] = sum(1 for f in files.documentation_pages() if f.src_uri.endswith(".md"))
    return files


@event_priority(-100)  # after every plugin has given the page its final Markdown
def on_page_markdown(markdown, page, config, files):
    cache = _build.get("cache")
    if isinstance(cache, RenderCache) and page.file.src_uri.endswith(".md"):
        cache.wrap(page, markdown, config, files)
    return markdown


def on_post_build(config):
    cache = _build.pop("cache", None)
    # Only a build that converted (or reused) every written page knows which entries are stale.
    if isinstance(cache, RenderCache) and len(cache.used) >= _build.pop("pages", 0) and cache.folder.is_dir():
        cache.evict_unused()
