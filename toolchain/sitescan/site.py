"""A built site folder, as every scan reads it: its files of some kinds, in a stable order, and the
one way a scan reports on it (exit 0 clean, 1 each finding listed, 2 not a built site)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path


def site_files(site: Path, suffixes: tuple[str, ...]) -> Iterator[tuple[Path, str]]:
    """(path, its text) of every file below ``site`` whose suffix is one of ``suffixes``, sorted."""
    for path in sorted(site.rglob("*")):
        if path.is_file() and path.suffix.lower() in suffixes:
            yield path, path.read_bytes().decode("utf-8", "replace")


def report(
    name: str,
    site: str,
    scan: Callable[[Path], tuple[list, int]],
    holds: str,
    failed: Callable[[int, int], str],
    clean: Callable[[int], str],
) -> int:
    """Run ``scan`` on the folder ``site`` and print what it found, as ``sitescan NAME`` does ->
    the exit code. ``holds`` names the files a built site holds; ``failed(findings, files)`` and
    ``clean(files)`` say the verdict."""
    folder = Path(site)
    if not folder.is_dir():
        print(f"sitescan: {name}: {site} is not a folder (give the built site, e.g. site/)", file=sys.stderr)
        return 2
    found, files = scan(folder)
    if files == 0:
        print(f"sitescan: {name}: {site} holds no {holds}: is it a built site?", file=sys.stderr)
        return 2
    for finding in found:
        print(f"{site.rstrip('/')}/{finding}", file=sys.stderr)
    if found:
        print(f"sitescan: {name}: {failed(len(found), files)}", file=sys.stderr)
        return 1
    print(f"sitescan: {name}: {clean(files)}", file=sys.stderr)
    return 0
