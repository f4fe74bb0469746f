"""Running snippets: one fresh interpreter each, a timeout each, and a cache that tells the truth.

A cached result is reused only while everything it depends on is unchanged: the snippet's source,
the source of every project module the run imported (recorded from ``sys.modules`` at the end of
the run, not declared by hand), the versions of Python, numpy and matplotlib, and this runner.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

RUNNER_VERSION = "1"
DEFAULT_TIMEOUT = 60.0

# Matplotlib reads ./matplotlibrc first: every snippet draws headless, and SVGs come out the same
# on every run (fixed hash salt; the date is stripped after the run).
MATPLOTLIBRC = """\
backend: Agg
svg.hashsalt: snipcheck
svg.fonttype: none
savefig.format: svg
figure.facecolor: white
savefig.facecolor: white
font.size: 11
"""

PINNED_ENV = {
    "MPLBACKEND": "Agg",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
    "SOURCE_DATE_EPOCH": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
}
_SVG_DATE = re.compile(r"\s*<dc:date>[^<]*</dc:date>")


@dataclass
class SnippetResult:
    """What one snippet did: its stdout, error, values, figures and the files it depends on."""

    name: str
    stdout: str = ""
    stderr: str = ""
    error: str | None = None  # a traceback, a timeout, a missing file, nondeterminism
    values: dict = field(default_factory=dict)
    figures: dict[str, str] = field(default_factory=dict)  # file name -> base64 bytes
    imported: dict[str, str] = field(default_factory=dict)  # project file -> sha256
    seconds: float = 0.0
    from_cache: bool = False

    def figure_bytes(self, name: str) -> bytes:
        return base64.b64decode(self.figures[name])


@dataclass
class Stats:
    ran: list[str] = field(default_factory=list)
    cached: list[str] = field(default_factory=list)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def environment_fingerprint() -> str:
    """What every result depends on besides its own files."""
    parts = [RUNNER_VERSION, sys.version, _version("numpy"), _version("matplotlib"), MATPLOTLIBRC, repr(sorted(PINNED_ENV.items()))]
    parts.append(Path(__file__).with_name("_bootstrap.py").read_text(encoding="utf-8"))
    return _sha256("\x00".join(parts).encode())


class Runner:
    """Runs the snippets of ``snippets_dir`` with a cache in ``cache_dir``."""

    def __init__(self, root: Path, snippets_dir: Path, cache_dir: Path, *, refresh: bool = False,
                 check_determinism: bool = True, jobs: int | None = None) -> None:
        self.root = Path(root).resolve()
        self.snippets_dir = Path(snippets_dir).resolve()
        self.cache_dir = Path(cache_dir).resolve()
        self.refresh = refresh
        self.check_determinism = check_determinism
        self.jobs = jobs or os.cpu_count() or 1
        self._fingerprint = environment_fingerprint()

    # -- the cache --------------------------------------------------------------------------------
    def _key(self, source: bytes, live: bool) -> str:
        return _sha256(self._fingerprint.encode() + source + (b"live" if live else b""))

    def _cache_path(self, name: str) -> Path:
        return self.cache_dir / (name.replace("/", "__") + ".json")

    def _load(self, name: str, key: str) -> SnippetResult | None:
        path = self._cache_path(name)
        if self.refresh or not path.exists():
            return None
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None
        if entry.get("key") != key:
            return None
        for rel, digest in entry["result"]["imported"].items():
            file = self.root / rel
            if not file.exists() or _sha256(file.read_bytes()) != digest:
                return None
        result = SnippetResult(**entry["result"])
        result.from_cache = True
        return result

    def _store(self, name: str, key: str, result: SnippetResult) -> None:
        if result.error is not None:
            return  # a failure is never cached: the next build tries again
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        path = self._cache_path(name)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"key": key, "result": asdict(result)}), encoding="utf-8")
        tmp.replace(path)

    # -- running ----------------------------------------------------------------------------------
    def run_all(self, requests: dict[str, tuple[float | None, bool]]) -> tuple[dict[str, SnippetResult], Stats]:
        """Run (or reuse) every requested snippet: name -> (timeout or None, live)."""
        stats = Stats()
        results: dict[str, SnippetResult] = {}
        todo = []
        for name, (timeout, live) in sorted(requests.items()):
            path = self.snippets_dir / name
            if not path.is_file():
                results[name] = SnippetResult(name, error=f"snippet file {self._rel(path)} does not exist")
                continue
            key = self._key(path.read_bytes(), live)
            cached = self._load(name, key)
            if cached is not None:
                results[name] = cached
                stats.cached.append(name)
            else:
                todo.append((name, key, timeout or DEFAULT_TIMEOUT, live))
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            fresh = list(pool.map(lambda job: self._run_checked(*job), todo))
        for (name, key, _, _), result in zip(todo, fresh):
            results[name] = result
            stats.ran.append(name)
            self._store(name, key, result)
        return results, stats

    def _run_checked(self, name: str, key: str, timeout: float, live: bool) -> SnippetResult:
        """Run the snippet; run it twice, side by side, to catch output that changes run to run."""
        if live or not self.check_determinism:
            return self.run_one(name, timeout)
        with ThreadPoolExecutor(max_workers=2) as pool:
            first, second = pool.map(lambda _: self.run_one(name, timeout), range(2))
        if first.error is None and second.error is None:
            differs = [what for what in ("stdout", "figures", "values") if getattr(first, what) != getattr(second, what)]
            if differs:
                first.error = (
                    f"nondeterministic: two runs of the same source gave different {' and '.join(differs)}"
                    + (f"\n--- run 1\n{first.stdout}--- run 2\n{second.stdout}" if "stdout" in differs else "")
                    + "\nSeed every random generator, or mark the run block `live` if it measures time."
                )
        return first if first.error is not None or second.error is None else second

    def run_one(self, name: str, timeout: float = DEFAULT_TIMEOUT) -> SnippetResult:
        """Run one snippet in a fresh interpreter with pinned threads, in an empty folder."""
        path = self.snippets_dir / name
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="snipcheck-") as tmp:
            work = Path(tmp) / "work"
            work.mkdir()
            (work / "matplotlibrc").write_text(MATPLOTLIBRC, encoding="utf-8")
            result_file = Path(tmp) / "result.json"
            env = {**os.environ, **PINNED_ENV}
            env.pop("PYTHONSTARTUP", None)
            command = [sys.executable, "-W", "error", "-m", "snipcheck._bootstrap", str(path), str(result_file), str(self.root)]
            env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent.parent), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
            process = subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                return SnippetResult(name, error=f"timed out after {timeout:g} s (raise it with timeout=SECONDS on the run block)",
                                     seconds=time.monotonic() - start)
            result = SnippetResult(name, stdout=out.decode("utf-8", "replace"), stderr=err.decode("utf-8", "replace"),
                                   seconds=time.monotonic() - start)
            if not result_file.exists():
                result.error = f"the interpreter exited with code {process.returncode} before the snippet finished\n{result.stderr}"
                return result
            report = json.loads(result_file.read_text(encoding="utf-8"))
            result.error = report["error"]
            result.values = report["values"]
            result.imported = {rel: _sha256((self.root / rel).read_bytes()) for rel in report["imported"]}
            result.figures = self._collect_figures(work)
        return result

    def _collect_figures(self, work: Path) -> dict[str, str]:
        figures = {}
        for file in sorted(work.rglob("*")):
            if not file.is_file() or file.name == "matplotlibrc":
                continue
            data = file.read_bytes()
            if file.suffix == ".svg":
                data = _SVG_DATE.sub("", data.decode("utf-8")).encode("utf-8")
            figures[file.relative_to(work).as_posix()] = base64.b64encode(data).decode("ascii")
        return figures

    def _rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)
