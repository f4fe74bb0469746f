"""Reading the pages' files: every Markdown page of a folder as text, or a problem naming the file
and line where it is not UTF-8."""

from __future__ import annotations

from pathlib import Path

from ..problems import Problem, ProblemKind

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")  # as MkDocs reads them


def decode_page(data: bytes, path: str) -> tuple[str, Problem | None]:
    """A page's bytes as text (UTF-8, an optional BOM), or a problem naming the file and line."""
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
        return "", Problem(
            ProblemKind.ENCODING, path, line, f"the page is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}): save it as UTF-8"
        )


def read_folder(folder: Path, shown) -> tuple[dict[str, str], list[Problem]]:
    """src_uri -> text of every Markdown page in ``folder``, and the pages that could not be read;
    ``shown(path)`` is a file's path as problems name it."""
    pages, problems = {}, []
    if not folder.is_dir():
        return pages, problems
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() not in MARKDOWN_SUFFIXES or not path.is_file():
            continue
        text, problem = decode_page(path.read_bytes(), shown(path))
        if problem is not None:
            problems.append(problem)
        else:
            pages[path.relative_to(folder).as_posix()] = text
    return pages, problems
