"""The files the plugin reads from and hands to the builder: the pages to check (``read_pages``), a
generated file written under a source folder of its own (``stable_file``),
``notebook_requires`` resolved against the site's files, and the order the builder reads the
pages in (``read_last``, ``in_order``)."""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from ..layout import VERIFICATION_PAGE
from ..problems import Problem
from ..read.pages import decode_page


def read_pages(files: Files, docs_prefix: str) -> tuple[dict[str, str], list[Problem]]:
    """Every documentation page but the verification page, decoded: src_uri -> its text, and a
    problem for each page that cannot be read (``docs_prefix`` makes its path the repository's)."""
    pages, unreadable = {}, []
    for f in files.documentation_pages():
        if f.src_uri == VERIFICATION_PAGE:
            continue
        text, problem = decode_page(f.content_bytes, posixpath.join(docs_prefix, f.src_uri))
        if problem is not None:
            unreadable.append(problem)
        else:
            pages[f.src_uri] = text
    return pages, unreadable


def stable_file(src_dir: Path, src_uri: str, data: bytes, config) -> File:
    """A file the build adds, as a real file under ``src_dir``, rewritten only when its bytes
    change: mkdocs-jupyter reads notebooks by path, and ``mkdocs serve --dirty`` rebuilds a page
    (the verification page) or copies a figure only when it is newer."""
    path = src_dir / src_uri
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
    return File(src_uri, str(src_dir), config.site_dir, config.use_directory_urls)


def resolve_requires(requires: dict, files: Files, site_url: str) -> dict[str, str]:
    """``notebook_requires`` (module -> pip requirement) with each path of the site made an
    absolute URL under ``site_url``: a path (a glob is allowed) must match one file of the build."""
    out = {}
    for module, spec in requires.items():
        spec = str(spec).strip()
        if "/" in spec and "://" not in spec:
            pattern = spec.lstrip("/")
            matches = sorted(f.src_uri for f in files if fnmatch.fnmatchcase(f.src_uri, pattern))
            if len(matches) != 1:
                raise PluginError(
                    f"snipcheck: notebook_requires {module}: {spec!r} matches "
                    f"{len(matches)} files of the site ({', '.join(matches) or 'none'}); it must match one"
                )
            if not site_url:
                raise PluginError(
                    f"snipcheck: notebook_requires {module}: {spec!r} is a file of the site, and a "
                    "downloaded notebook needs its absolute URL: set site_url"
                )
            spec = site_url.rstrip("/") + "/" + files.get_file_from_path(matches[0]).url
        out[str(module)] = spec
    return out


def read_last(files: Files, late: Callable[[File], bool]) -> list[str]:
    """Move the pages ``late`` picks (those that show what a live run still measuring will give) to
    the end of ``files``: the builder reads its pages in that order, so it reads every other page
    while the runs go on, and waits for them only then. Returns the order of every file before."""
    order = [f.src_uri for f in files]
    for file in [f for f in files.documentation_pages() if late(f)]:
        files.remove(file)
        files.append(file)
    return order


def in_order(files: Files, order: list[str]) -> None:
    """Put every file of ``files`` back in ``order`` (a plugin may have made ``files`` anew since,
    or made more of them pages: mkdocs-jupyter its notebooks), those ``order`` does not name after
    the rest, as they came: the builder writes the pages, the search index and the sitemap in the
    order of ``files``, and nothing it writes depends on the order it read the pages in."""
    rank = {uri: i for i, uri in enumerate(order)}
    for file in sorted(files, key=lambda f: rank.get(f.src_uri, len(rank))):
        files.remove(file)
        files.append(file)
