"""The results a build may reuse, behind one ``get`` and one ``put``: the disk cache and the
in-memory reuse that spares reading it again.

A result is found under its key (the environment fingerprint and the snippet's source, see
``key``) and used only while every project file the run read still has the hash it had then:

- the memory: the last result of each snippet this process stored or read back (serve rebuilds
  in one process reuse it without reading and decoding the cache entry again);
- the disk cache (``cache.py``), which survives the process;
- under ``mkdocs serve`` (``keep_live``): the live results measured earlier in the session (a
  build shows what it measured itself, so it never reuses one), and the results of background
  runs handed to the rebuild they trigger (``deliver``), each once.

Live results are never written to disk, failures never stored.
"""

from __future__ import annotations

import threading
from pathlib import Path

from .cache import Cache, FileHashes, sha256
from .environment import environment_fingerprint
from .result import Request, SnippetResult


class ResultStore:
    def __init__(
        self,
        root: Path,
        snippets_dir: Path,
        cache_dir: Path,
        *,
        refresh: bool = False,
        check_determinism: bool = True,
        keep_live: bool = False,
        warn=None,
    ) -> None:
        self.root = Path(root).resolve()
        self.snippets_dir = Path(snippets_dir).resolve()
        self.refresh = refresh
        self.check_determinism = check_determinism
        self.keep_live = keep_live
        self.cache = Cache(Path(cache_dir).resolve(), warn)
        self.fingerprint = environment_fingerprint(self.cache.folder)
        self._lock = threading.Lock()
        self._memo: dict[str, tuple[str, SnippetResult]] = {}
        self._session: dict[tuple[str, str], SnippetResult] = {}  # serve: live results of this session
        self._delivered: dict[str, tuple[str, SnippetResult]] = {}  # serve: background results, once

    def hashes(self) -> FileHashes:
        """The hashes of project files for one round of lookups (each file read once)."""
        return FileHashes(self.root)

    # -- keys -------------------------------------------------------------------------------------
    def key(self, name: str, source: bytes) -> str:
        return sha256(self.fingerprint.encode() + b"\0" + name.encode() + b"\0" + source)

    def source(self, name: str) -> tuple[bytes, str | None]:
        """The snippet's bytes, or why it cannot run (outside the folder, missing, not UTF-8)."""
        path = self.snippets_dir / name
        shown = f"{self._rel(self.snippets_dir)}/{name}"
        try:
            real = path.resolve()
            real.relative_to(self.snippets_dir)
        except ValueError:
            return b"", f"snippet file {shown} is outside the snippets folder"
        if not real.is_file():
            return b"", f"snippet file {shown} does not exist"
        data = real.read_bytes()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            return b"", f"snippet file {shown} is not UTF-8 (byte 0x{data[exc.start]:02x} on line {line})"
        return data, None

    # -- get and put ------------------------------------------------------------------------------
    def get(self, name: str, key: str, request: Request, hashes: FileHashes) -> SnippetResult | None:
        """A result to reuse for ``name`` under ``key``, or None: it has to run."""
        with self._lock:
            delivered = self._delivered.pop(name, None)
        if delivered is not None and delivered[0] == key:
            return delivered[1]
        if request.live:
            if not self.keep_live:
                return None  # a live snippet shows what this build measured
            kept = self._session.get((name, key))
            if kept is not None and all(hashes.get(rel) == digest for rel, digest in kept.imported.items()):
                return kept
            return None
        if self.refresh:
            return None
        memo = self._memo.get(name)
        if memo is not None and memo[0] == key and all(hashes.get(rel) == digest for rel, digest in memo[1].imported.items()):
            cached = memo[1]
        else:
            cached = self.cache.load(name, key, hashes)
            if cached is not None:
                self._memo[name] = (key, cached)
        if cached is not None and self.check_determinism and cached.runs < 2:
            return None  # run once when it was stored; this build compares two runs
        return cached

    def put(self, name: str, key: str, request: Request, result: SnippetResult) -> None:
        """Keep a clean result whose files did not change while it ran (see ``Executor``)."""
        if result.error is not None or result.imported.pop("(changed while it ran)", None) is not None:
            return
        if request.live:
            if self.keep_live:
                self._session[(name, key)] = result
            return
        self.cache.store(name, key, result)
        if self.cache.writable:  # what the cache holds; without a cache, nothing is kept
            self._memo[name] = (key, SnippetResult(**{**result.__dict__, "from_cache": True}))

    def deliver(self, name: str, key: str, result: SnippetResult) -> None:
        """Serve: a background run's result, for the rebuild it triggers (taken once by ``get``)."""
        with self._lock:
            self._delivered[name] = (key, result)

    def last_seconds(self, name: str) -> float:
        return self.cache.last_seconds(name)

    def _rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()
