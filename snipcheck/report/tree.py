"""Writing the rendered site as a folder (``python -m snipcheck render OUT``).

The tree is every file of the docs folder, with each checked page replaced by its rendered
Markdown, plus the files the build adds (figures, the verification page, notebooks). It is
written beside OUT under a temporary name and then swapped in, so OUT is always either the old
tree or the whole new one. OUT is replaced only if it is absent, empty, or marked as an earlier
render (a ``.snipcheck-render`` file, which builders skip like any dotfile); a folder that holds
the pages, the project, or anything else is refused.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from .stage import Staged

MARKER = ".snipcheck-render"


class StageRefused(Exception):
    """OUT is a folder the render must not replace."""


def check_destination(docs_dir: Path, out: Path, root: Path) -> None:
    docs, target, project = docs_dir.resolve(), out.resolve(), root.resolve()
    if target == docs or docs in target.parents or target in docs.parents:
        raise StageRefused(f"{out} overlaps the pages' folder {docs_dir}: write the tree somewhere else")
    if target == project or target in project.parents:
        raise StageRefused(f"{out} holds the project: write the tree to a folder of its own")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise StageRefused(f"{out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise StageRefused(f"{out} is not empty and was not written by render: remove it, or choose another folder")


def write_tree(docs_dir: Path, out: Path, staged: Staged, *, root: Path) -> int:
    """Write the tree; return how many files it holds."""
    check_destination(docs_dir, out, root)
    out = out.absolute()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}-{time.monotonic_ns()}"
    tmp.mkdir()
    count = 0
    try:
        for path in sorted(docs_dir.rglob("*")):
            if not path.is_file():
                continue
            rel = path.relative_to(docs_dir).as_posix()
            if rel in staged.pages or rel in staged.files:
                continue
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, tmp / rel)
            count += 1
        for rel, text in staged.pages.items():
            _write(tmp / rel, text.encode("utf-8"))
            count += 1
        for rel, data in staged.files.items():
            _write(tmp / rel, data)
            count += 1
        (tmp / MARKER).write_text("Written by `python -m snipcheck render`; replaced whole by the next render.\n", encoding="utf-8")
        old = None
        if out.exists():
            old = out.parent / f".{out.name}.old-{os.getpid()}-{time.monotonic_ns()}"
            out.rename(old)
        tmp.rename(out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return count


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
