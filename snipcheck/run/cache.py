"""The result cache: a snippet's result is reused only while everything it read is unchanged.

One JSON file per snippet in the cache folder, written atomically (a uniquely named temporary
file, then a rename), so parallel builds on one tree, a build killed mid-way and a reader racing
a writer all see either the old entry or the new one. An entry records the key it was made under
(the environment fingerprint and the snippet's source) and every project file and folder listing
the run read, with its hash; it is used only if all of them hash the same now. An unreadable,
corrupt or wrong-shaped entry is a miss (the snippet reruns). A cache folder that cannot be
written is a warning, once: the build runs uncached. Failures are never stored.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import asdict, fields
from pathlib import Path

from .result import SnippetResult

SCHEMA = 3
STALE_TEMP_SECONDS = 3600


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FileHashes:
    """Hashes of project files and folder listings, each computed once per build."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._memo: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def get(self, rel: str) -> str | None:
        with self._lock:
            if rel in self._memo:
                return self._memo[rel]
        value = self.compute(rel)
        with self._lock:
            self._memo[rel] = value
        return value

    def compute(self, rel: str) -> str | None:
        path = self.root / rel
        try:
            if rel.endswith("/"):
                return sha256("\0".join(sorted(os.listdir(path))).encode())
            return sha256(path.read_bytes())
        except OSError:
            return None


class Cache:
    def __init__(self, folder: Path, warn) -> None:
        self.folder = folder
        self.warn = warn
        self.writable = True
        self._warned = False

    def _path(self, name: str) -> Path:
        return self.folder / (name.replace("/", "__") + ".json")

    def last_seconds(self, name: str) -> float:
        """How long the snippet's last stored run took, whatever its key (0 if unknown): only to
        decide what starts first, never to reuse a result."""
        try:
            seconds = json.loads(self._path(name).read_text(encoding="utf-8"))["result"]["seconds"]
        except (OSError, ValueError, TypeError, KeyError):
            return 0.0
        return float(seconds) if isinstance(seconds, (int, float)) and seconds > 0 else 0.0

    def load(self, name: str, key: str, hashes: FileHashes) -> SnippetResult | None:
        path = self._path(name)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            if entry.get("schema") != SCHEMA or entry.get("key") != key:
                return None
            data = entry["result"]
            known = {f.name for f in fields(SnippetResult)}
            if not isinstance(data, dict) or set(data) - known or not isinstance(data.get("imported"), dict):
                return None
            result = SnippetResult(**data)
            if (
                not isinstance(result.stdout, str)
                or not isinstance(result.values, dict)
                or not isinstance(result.figures, dict)
                or not isinstance(result.cells, dict)
                or type(result.runs) is not int
                or result.error is not None
                or result.name != name
            ):
                return None
            for rel, digest in result.imported.items():
                if not isinstance(rel, str) or hashes.get(rel) != digest:
                    return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None
        result.from_cache = True
        return result

    def store(self, name: str, key: str, result: SnippetResult) -> None:
        if result.error is not None or not self.writable:
            return  # a failure is never cached: the next build tries again
        path = self._path(name)
        data = json.dumps({"schema": SCHEMA, "key": key, "result": {**asdict(result), "from_cache": False}})
        tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}-{threading.get_ident()}-{time.monotonic_ns()}")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(tmp, "x", encoding="utf-8") as handle:
                handle.write(data)
            os.replace(tmp, path)
        except OSError as exc:
            try:
                tmp.unlink()
            except OSError:
                pass
            self.writable = False
            if not self._warned:
                self._warned = True
                self.warn(f"cannot write the cache folder {self.folder} ({exc.strerror or exc}): running without a cache")

    def clean(self, snippet_names: set[str]) -> None:
        """Drop entries of snippets that no longer exist and temporary files a killed build left."""
        try:
            entries = list(self.folder.iterdir())
        except OSError:
            return
        now = time.time()
        for entry in entries:
            try:
                if ".tmp-" in entry.name:
                    if now - entry.stat().st_mtime > STALE_TEMP_SECONDS:
                        entry.unlink()
                elif entry.suffix == ".json" and entry.name[: -len(".json")].replace("__", "/") not in snippet_names:
                    entry.unlink()
            except OSError:
                pass
