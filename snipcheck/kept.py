"""Answers of pure functions of a text (a snippet's source), kept between builds.

Several stages read each snippet's source with Python's own parser on every build: its cells
(``read/cells.py``), the modules it imports (``report/notebook.py``), its ``assert`` statements
(``report/verification.py``). What each finds depends only on the text, the checker's code and
Python's version, so ``by_text`` keeps each function's answers in a file of the folder the
engine names (``keep_in``), keyed by a hash of the text; a file made by other code (any change
to the snipcheck package) or another Python is not read. A function's answers are computed as
usual where no folder is named, for a text it has no answer for, and when the file cannot be
read or written. Each answer is also kept in memory for the rest of the process.

A file keeps the answers looked up since the process started and those it held; once it holds
many more than the process looked up (texts long since edited), it keeps only those.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent
_lock = threading.RLock()
_folder: Path | None = None
_tables: dict[str, _Table] = {}


def keep_in(folder: Path | None) -> None:
    """Keep the answers in ``folder`` (None: in memory only, for this process)."""
    global _folder
    with _lock:
        if folder != _folder:
            _folder = folder
            for table in _tables.values():
                table.loaded = False


@functools.cache
def code_fingerprint() -> str:
    """The snipcheck package's source and Python's version: what every answer depends on beyond its text."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(b"\0" + path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees the whole file or none: through a temporary
    file of this process and thread, renamed over it. A file that cannot be written is not kept
    (the caller computes it again next time), and leaves no temporary file behind."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass


class _Table:
    """One function's answers: text hash -> encoded answer."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.answers: dict[str, Any] = {}  # from the file, and computed here
        self.used: set[str] = set()  # looked up by this process
        self.loaded = False

    def path(self) -> Path | None:
        return _folder / f"{self.name}.json" if _folder is not None else None

    def load(self) -> None:
        self.loaded = True
        path = self.path()
        if path is None:
            return
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(kept, dict) and kept.get("code") == code_fingerprint() and isinstance(kept.get("answers"), dict):
            self.answers = {**kept["answers"], **self.answers}

    def write(self) -> None:
        path = self.path()
        if path is None:
            return
        if len(self.answers) > 2 * len(self.used) + 64:  # mostly texts no longer read: drop them
            self.answers = {key: self.answers[key] for key in self.used if key in self.answers}
        write_whole(path, json.dumps({"code": code_fingerprint(), "answers": self.answers}))


def by_text(name: str, encode: Callable[[Any], Any], decode: Callable[[Any], Any]):
    """Keep the answers of ``function(text)`` under ``name``; ``encode`` makes an answer JSON,
    ``decode`` makes it an answer again (the function's result type)."""

    def wrap(function):
        table = _tables.setdefault(name, _Table(name))
        memo: dict[str, Any] = {}  # text hash -> answer, this process

        @functools.wraps(function)
        def kept(text: str):
            key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
            with _lock:
                if key in memo:
                    return memo[key]
                if not table.loaded:
                    table.load()
                table.used.add(key)
                encoded = table.answers.get(key)
            if encoded is not None:
                try:
                    answer = decode(encoded)
                except (TypeError, ValueError, KeyError, IndexError):
                    encoded = None  # malformed: computed again
            if encoded is None:
                answer = function(text)
                with _lock:
                    table.answers[key] = encode(answer)
                    table.write()
            with _lock:
                memo[key] = answer
            return answer

        kept.codec = (encode, decode)
        return kept

    return wrap
