"""Running snippets: one fresh interpreter each, fenced in, a timeout each, and an honest cache.

Each snippet runs in ``_bootstrap.py`` (a supervisor and the snippet's own process, see there)
in an empty temporary folder with a fixed environment (``snippet_environment``): nothing of the
build's own environment leaks in. Output goes to files, never pipes, so a process the snippet
left behind cannot hold the build up. A result is cached (``cache.py``) under a key made of the
environment fingerprint and the snippet's source, together with every project file the run read.

Live snippets (run blocks marked ``live``) are never taken from the cache: ``check`` and
``mkdocs build`` run them every time. A build may start them early (``start_live``), ask
``run_all`` not to wait for them (``wait_live=False``: they come back ``pending``) and ``collect``
them when it needs them, so a measurement runs beside the rest of the build instead of before it.
Under ``mkdocs serve`` (``mode="serve"``) a live result
measured earlier in the same serve session is reused while its inputs are unchanged, and any run
that has not finished within ``serve_wait`` seconds goes on in the background: the page shows it
as running, and ``on_background_done`` is called when it ends (the plugin then rebuilds).
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from .cache import Cache, FileHashes, sha256
from .results import SnippetResult

RUNNER_VERSION = "3"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 4096
KILL_GRACE = 10.0  # seconds the supervisor has to stop the snippet's processes after the timeout
BOOTSTRAP = Path(__file__).with_name("_bootstrap.py")

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
    "PYTHONNOUSERSITE": "1",
    "PYTHONIOENCODING": "utf-8",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
}
_SVG_DATE = re.compile(r"\s*<dc:date>[^<]*</dc:date>")
_OWN_FILES = ("runner.py", "_bootstrap.py", "cache.py", "results.py")


@dataclass(frozen=True)
class Request:
    timeout: float | None = None
    live: bool = False
    memory_mb: int | None = None


@dataclass
class Stats:
    ran: list[str] = field(default_factory=list)
    cached: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    sandbox: set[str] = field(default_factory=set)


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def shared_home() -> Path:
    """HOME (and matplotlib's font cache) for every snippet of this user: fixed, outside the project."""
    home = Path(tempfile.gettempdir()) / f"snipcheck-home-{os.getuid() if hasattr(os, 'getuid') else 0}"
    (home / "matplotlib").mkdir(parents=True, exist_ok=True)
    return home


def snippet_environment(tmp: Path, marker: str) -> dict[str, str]:
    """The whole environment a snippet sees (an allow-list, not the build's environment)."""
    home = shared_home()
    return {**PINNED_ENV, "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": str(home), "MPLCONFIGDIR": str(home / "matplotlib"), "TMPDIR": str(tmp), "SNIPCHECK_RUN": marker}


def environment_fingerprint() -> str:
    """What every result depends on besides its own files: the interpreter, every installed
    distribution and its version, the snippet environment and the runner's own code."""
    parts = [RUNNER_VERSION, sys.version, sys.executable, MATPLOTLIBRC, repr(sorted(PINNED_ENV.items())),
             str(DEFAULT_MEMORY_MB)]
    # One entry per distribution, however often the path lists it (an editable install is also
    # found from the project folder): the fingerprint must not depend on where the build runs.
    distributions = sorted({f"{re.sub(r'[-_.]+', '-', d.metadata['Name']).lower()}=={d.version}"
                            for d in importlib.metadata.distributions() if d.metadata and d.metadata["Name"]})
    parts.append("\n".join(distributions))
    here = Path(__file__).parent
    parts += [(here / name).read_text(encoding="utf-8") for name in _OWN_FILES]
    return sha256("\x00".join(parts).encode())


class Runner:
    """Runs the snippets of ``snippets_dir`` with a cache in ``cache_dir``."""

    def __init__(self, root: Path, snippets_dir: Path, cache_dir: Path, *, refresh: bool = False,
                 check_determinism: bool = True, jobs: int | None = None, mode: str = "build",
                 serve_wait: float = 5.0, warn=None) -> None:
        self.root = Path(root).resolve()
        self.snippets_dir = Path(snippets_dir).resolve()
        self.cache_dir = Path(cache_dir).resolve()
        self.refresh = refresh
        self.check_determinism = check_determinism
        self.jobs = jobs or os.cpu_count() or 1
        self.mode = mode
        self.serve_wait = serve_wait
        self.warn = warn or (lambda message: print(f"snipcheck: warning: {message}", file=sys.stderr))
        self.cache = Cache(self.cache_dir, self.warn)
        self.fingerprint = self._fingerprint = environment_fingerprint()
        self._active: set[subprocess.Popen] = set()
        self._runs: dict[str, set[subprocess.Popen]] = {}  # snippet name -> its processes running now
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._session: dict[tuple[str, str], SnippetResult] = {}  # serve: live results of this session
        self._background: dict[str, tuple[str, Future]] = {}  # serve: name -> (key, running future)
        self._pool: ThreadPoolExecutor | None = None
        self._announce: set[str] = set()  # serve: runs a page showed as still running
        self._delivered: dict[str, tuple[str, SnippetResult]] = {}  # serve: their results, once
        self._started: dict[str, tuple[str, Future]] = {}  # build: live runs started, not yet collected
        self._looked_up: dict[str, tuple[str, SnippetResult | None]] = {}  # build: start_live's cache lookups
        self._hashes: FileHashes | None = None
        # The last result of each snippet this runner stored or read back, with its key: the cache
        # without reading and decoding its entry again, under the same test (every file the run
        # read still has the hash it had then). Serve rebuilds in one process reuse it.
        self._memo: dict[str, tuple[str, SnippetResult]] = {}
        self._live_pool: ThreadPoolExecutor | None = None
        self.on_background_done = None
        self._unannounced: set[str] = set()
        self.sandbox_note: str | None = None

    # -- keys -------------------------------------------------------------------------------------
    def key(self, name: str, source: bytes) -> str:
        return sha256(self._fingerprint.encode() + b"\0" + name.encode() + b"\0" + source)

    # -- running ----------------------------------------------------------------------------------
    def start_live(self, requests: dict[str, Request]) -> None:
        """Build mode: start the live snippets among ``requests`` now, in the background, for a
        later ``run_all`` to pick up (it starts a snippet again only if its source changed).

        Only when every other requested snippet comes from the cache: a measurement never runs
        beside the build's other snippets (it would measure them too). What the cache lookups
        found is kept for ``run_all``."""
        if self.mode == "serve":
            return
        self._hashes = hashes = FileHashes(self.root)
        live, ready = [], True
        for name, request in sorted(requests.items()):
            source, problem = self._source(name)
            if problem is not None:
                continue
            key = self.key(name, source)
            if request.live:
                live.append((name, key, request))
            else:
                reused = self._reuse(name, key, request, hashes)
                self._looked_up[name] = (key, reused)
                ready &= reused is not None
        if ready:
            for name, key, request in live:
                self._start(name, key, request)

    def _start(self, name: str, key: str, request: Request) -> Future:
        with self._lock:
            started = self._started.get(name)
            if started is not None and started[0] == key and not started[1].cancelled():
                return started[1]
            if started is not None:
                started[1].cancel()
            if self._live_pool is None:
                self._live_pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="snipcheck-live")
            future = self._live_pool.submit(self._run_and_store, name, key, request)
            self._started[name] = (key, future)
            return future

    def collect(self, names) -> tuple[dict[str, SnippetResult], Stats]:
        """Wait for the live runs ``names`` that ``run_all(wait_live=False)`` left running."""
        with self._lock:
            futures = {self._started.pop(name)[1]: name for name in sorted(names) if name in self._started}
        results, stats = {}, Stats()
        self._wait(futures)
        for future, name in futures.items():
            results[name] = future.result()
            stats.ran.append(name)
        return results, stats

    def _wait(self, futures) -> None:
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
        except BaseException:
            self.stop()  # Ctrl-C: stop every snippet and its processes, then let the workers clean up
            raise

    def run_all(self, requests: dict[str, Request], *, wait_live: bool = True) -> tuple[dict[str, SnippetResult], Stats]:
        """Run (or reuse) every requested snippet. ``wait_live=False`` (build mode): live snippets
        run in the background and come back ``pending``; ``collect`` waits for them."""
        stats = Stats()
        results: dict[str, SnippetResult] = {}
        hashes = self._hashes or FileHashes(self.root)
        looked_up, self._looked_up, self._hashes = self._looked_up, {}, None
        todo: list[tuple[str, str, Request]] = []
        for name, request in sorted(requests.items()):
            source, problem = self._source(name)
            if problem is not None:
                results[name] = SnippetResult(name, error=problem, live=request.live)
                continue
            key = self.key(name, source)
            earlier = looked_up.get(name)
            reused = earlier[1] if earlier is not None and earlier[0] == key and not request.live else \
                self._reuse(name, key, request, hashes)
            if reused is not None:
                results[name] = reused
                stats.cached.append(name)
            else:
                todo.append((name, key, request))
        if self.mode == "serve":
            self._run_in_background(todo, results, stats)
            return results, stats
        # The other snippets first: a measurement runs only once they are done (see start_live).
        self._run_now([item for item in todo if not item[2].live], results, stats)
        started = {self._start(name, key, request): name for name, key, request in todo if request.live}
        if wait_live:
            more, more_stats = self.collect(started.values())
            results.update(more)
            stats.ran += more_stats.ran
        else:
            for name in started.values():
                results[name] = SnippetResult(name, pending=True, live=True)
                stats.pending.append(name)
        return results, stats

    def _reuse(self, name: str, key: str, request: Request, hashes: FileHashes) -> SnippetResult | None:
        if self.mode == "serve":
            with self._lock:
                delivered = self._delivered.pop(name, None)
            if delivered is not None and delivered[0] == key:
                return delivered[1]
        if request.live:
            if self.mode != "serve":
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

    def _run_now(self, todo, results, stats) -> None:
        if not todo:
            return
        pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="snipcheck")
        futures = {pool.submit(self._run_and_store, name, key, request): name for name, key, request in _longest_first(todo, self.cache)}
        try:
            self._wait(futures)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        for future, name in futures.items():
            results[name] = future.result()
            stats.ran.append(name)

    def _run_in_background(self, todo, results, stats) -> None:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="snipcheck-serve")
        started = []
        for name, key, request in todo:
            running = self._background.get(name)
            if running is not None and running[0] == key:
                future = running[1]
            else:
                if running is not None and not running[1].cancel():
                    self._stop_runs(name)  # the source changed: its old run (a loop, say) is of no use
                future = self._pool.submit(self._run_and_store, name, key, request)
                future.add_done_callback(lambda f, n=name: self._background_done(n, f))
                self._background[name] = (key, future)
            started.append((name, future))
        if started:
            wait([f for _, f in started], timeout=self.serve_wait)
        for name, future in started:
            with self._lock:
                if not future.done():
                    self._announce.add(name)  # the page says "running": rebuild when it ends
            if future.done() and not future.cancelled():
                results[name] = future.result()
                stats.ran.append(name)
            else:
                results[name] = SnippetResult(name, pending=True)
                stats.pending.append(name)

    def _background_done(self, name: str, future: Future) -> None:
        with self._lock:
            current = self._background.get(name)
            if current is not None and current[1] is future:
                del self._background[name]
            announce = name in self._announce
            self._announce.discard(name)
            if announce and not future.cancelled() and current is not None:
                self._delivered[name] = (current[0], future.result())  # for the rebuild it triggers
        if announce and not future.cancelled():
            with self._lock:
                callback = self.on_background_done
                if callback is None:
                    self._unannounced.add(name)  # ended before anyone listened: see take_unannounced
            if callback is not None:
                callback(name)

    def take_unannounced(self) -> set[str]:
        """The background runs a page showed as running that ended while ``on_background_done``
        was not set yet (under ``mkdocs serve``: during the first build, before the server
        watches anything); each is handed out once."""
        with self._lock:
            names, self._unannounced = self._unannounced, set()
        return names

    def _run_and_store(self, name: str, key: str, request: Request) -> SnippetResult:
        if self._cancel.is_set():
            return SnippetResult(name, error="stopped before it ran (the build was interrupted)")
        result = self._run_checked(name, request)
        result.live = request.live
        if result.error is None and result.imported.pop("(changed while it ran)", None) is None:
            if request.live:
                if self.mode == "serve":
                    self._session[(name, key)] = result
            else:
                self.cache.store(name, key, result)
                if self.cache.writable:  # what the cache holds; without a cache, nothing is kept
                    self._memo[name] = (key, SnippetResult(**{**result.__dict__, "from_cache": True}))
        return result

    def _run_checked(self, name: str, request: Request) -> SnippetResult:
        """Run the snippet; run it twice, side by side, to catch output that changes run to run."""
        if request.live or not self.check_determinism:
            return self.run_one(name, request)
        with ThreadPoolExecutor(max_workers=2) as pool:
            first, second = pool.map(lambda _: self.run_one(name, request), range(2))
        if first.error is None and second.error is None:
            differs = [what for what in ("stdout", "figures", "values") if getattr(first, what) != getattr(second, what)]
            if differs:
                first.error = (
                    f"nondeterministic: two runs of the same source gave different {' and '.join(differs)}"
                    + (f"\n--- run 1\n{first.stdout}--- run 2\n{second.stdout}" if "stdout" in differs else "")
                    + "\nSeed every random generator, or mark the run block `live` if it measures time."
                )
            if first.imported != second.imported:
                first.imported["(changed while it ran)"] = ""
            if first.error is None:
                first.runs = 2
        return first if first.error is not None or second.error is None else second

    def run_one(self, name: str, request: Request = Request()) -> SnippetResult:
        """Run one snippet in a fresh interpreter, fenced in, in an empty folder."""
        path = self.snippets_dir / name
        timeout = request.timeout or DEFAULT_TIMEOUT
        memory = request.memory_mb or DEFAULT_MEMORY_MB
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="snipcheck-") as tmp_name:
            tmp = Path(tmp_name)
            work, scratch = tmp / "work", tmp / "tmp"
            work.mkdir()
            scratch.mkdir()
            (work / "matplotlibrc").write_text(MATPLOTLIBRC, encoding="utf-8")
            marker = f"{os.getpid()}-{threading.get_ident()}-{time.monotonic_ns()}"
            config = {
                "snippet": str(path), "root": str(self.root), "result": str(tmp / "result.json"),
                "status": str(tmp / "status.json"), "timeout": timeout,
                "memory_mb": memory, "writable": [str(work), str(scratch), str(shared_home()), "/dev"],
                "untracked": [str(self.root / ".venv"), str(self.root / ".git"), str(self.cache_dir),
                              str(Path(__file__).resolve().parent)],
            }
            (tmp / "config.json").write_text(json.dumps(config), encoding="utf-8")
            out_path, err_path = tmp / "stdout", tmp / "stderr"
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                try:
                    process = subprocess.Popen([sys.executable, "-W", "error", str(BOOTSTRAP), str(tmp / "config.json")],
                                               cwd=work, env=snippet_environment(scratch, marker), stdout=out, stderr=err,
                                               stdin=subprocess.DEVNULL, start_new_session=True)
                except OSError as exc:
                    return SnippetResult(name, error=f"cannot start Python: {exc}")
            with self._lock:
                self._active.add(process)
                self._runs.setdefault(name, set()).add(process)
            try:
                try:
                    process.wait(timeout=timeout + KILL_GRACE)
                except subprocess.TimeoutExpired:
                    self._kill(process)
            finally:
                with self._lock:
                    self._active.discard(process)
                    self._runs.get(name, set()).discard(process)
                _kill_marked(marker)
            seconds = time.monotonic() - start
            stdout = out_path.read_bytes().decode("utf-8", "replace")
            stderr = err_path.read_bytes().decode("utf-8", "replace")
            result = SnippetResult(name, stdout=stdout, stderr=stderr, seconds=seconds)
            status = _read_json(tmp / "status.json") or {}
            report = _read_json(tmp / "result.json")
            if report is not None and report.get("sandbox"):
                self.sandbox_note = report["sandbox"]
            if self._cancel.is_set() or status.get("stopped"):
                result.error = "stopped: the build was interrupted, or the snippet was edited while it ran"
                return result
            if status.get("timed_out") or not status:
                left = status.get("left_running", 0)
                result.error = (f"timed out after {timeout:g} s (raise it with timeout=SECONDS on the run block)"
                                + (f"; {left} process(es) it started were stopped too" if left else ""))
                return result
            if report is None:
                code = status.get("exit")
                how = f"killed by signal {-code}" if isinstance(code, int) and code < 0 else f"exit code {code}"
                hint = (f"\nIf it ran out of memory: a snippet may use at most {memory} MiB (raise it with memory=MIB on the run block)."
                        if isinstance(code, int) and code in (-9, -11, -6) else "")
                tail = "\n".join(stderr.strip().splitlines()[-12:])
                result.error = f"the interpreter ended ({how}) before the snippet finished{hint}" + (f"\n{tail}" if tail else "")
                return result
            result.error = report.get("error")
            result.values = report.get("values") or {}
            result.imported = self._verify_reads(report)
            figures, problem = self._collect_figures(work)
            result.figures = figures
            if result.error is None and problem:
                result.error = problem
        return result

    def _verify_reads(self, report: dict) -> dict[str, str]:
        """The project files the run read, with the hash each had when it was read; a file that
        changed since (an edit during the run) makes the result uncacheable."""
        imported: dict[str, str] = {}
        changed = False
        for rel, entry in sorted((report.get("reads") or {}).items()):
            imported[rel] = entry["sha256"]
            try:
                now = os.stat(self.root / rel)
                changed |= [now.st_mtime_ns, now.st_ctime_ns, now.st_size, now.st_ino] != entry["stat"]
            except OSError:
                changed = True
        for rel, digest in sorted((report.get("listed") or {}).items()):
            imported[rel] = digest
        if changed:
            imported["(changed while it ran)"] = ""
        return imported

    def _collect_figures(self, work: Path) -> tuple[dict[str, str], str | None]:
        figures = {}
        for folder, dirs, files in os.walk(work, followlinks=False):
            for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]):
                file = Path(folder) / name
                rel = file.relative_to(work).as_posix()
                if rel == "matplotlibrc":
                    continue
                if file.is_symlink() or not file.is_file():
                    return {}, f"the snippet left {rel}, which is not a plain file (a link or a device): figures must be files it wrote"
                data = file.read_bytes()
                if file.suffix == ".svg":
                    data = _SVG_DATE.sub("", data.decode("utf-8", "replace")).encode("utf-8")
                figures[rel] = base64.b64encode(data).decode("ascii")
        return dict(sorted(figures.items())), None

    def _source(self, name: str) -> tuple[bytes, str | None]:
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

    # -- stopping ---------------------------------------------------------------------------------
    def stop(self) -> None:
        """Stop every running snippet and everything it started (Ctrl-C, or the server stopping)."""
        self._cancel.set()
        with self._lock:
            active = list(self._active)
        for process in active:
            try:
                process.send_signal(signal.SIGTERM)  # the supervisor kills the snippet's processes
            except OSError:
                pass
        deadline = time.monotonic() + KILL_GRACE
        for process in active:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._kill(process)
        for pool in (self._pool, self._live_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    def _stop_runs(self, name: str) -> None:
        """Stop the runs of ``name`` going on now (serve: its source changed under them); their
        supervisors stop everything the snippet started. Does not wait."""
        with self._lock:
            running = list(self._runs.get(name, ()))
        for process in running:
            try:
                process.send_signal(signal.SIGTERM)
            except OSError:
                pass

    def _kill(self, process: subprocess.Popen) -> None:
        for kill in (lambda: os.killpg(process.pid, signal.SIGKILL), lambda: process.kill()):
            try:
                kill()
            except OSError:
                pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def _rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()


def _longest_first(todo, cache: Cache) -> list:
    """The runs in the order they start: the longest expected first, so that no long run starts
    last while the other cores have nothing left. Expected long: a run block that allows more
    than the default timeout (the longer, the earlier), then the longer the last stored run took,
    then by name."""
    return sorted(todo, key=lambda item: (-max((item[2].timeout or 0.0) - DEFAULT_TIMEOUT, 0.0),
                                          -cache.last_seconds(item[0]), item[0]))


def _read_json(path: Path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _kill_marked(marker: str) -> None:
    """The last line of defence: any process still carrying this run's marker in its environment
    (the supervisor itself was killed) is killed."""
    if not sys.platform.startswith("linux"):
        return
    needle = f"SNIPCHECK_RUN={marker}".encode() + b"\0"
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if needle in handle.read() + b"\0":
                    os.kill(int(entry), signal.SIGKILL)
        except OSError:
            continue
