"""Running one snippet: one fresh interpreter, fenced in, in an empty folder, with a timeout.

Each run goes through ``_bootstrap.py`` (a supervisor and the snippet's own process, see there)
in an empty temporary folder with a fixed environment (``environment.py``). Output goes to files,
never pipes, so a process the snippet left behind cannot hold the build up. The executor keeps no
result: it knows only the processes running now, so that ``stop`` (Ctrl-C, the server stopping)
and ``stop_runs`` (serve: a snippet edited while it runs) can end them.
"""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import zygote
from .cells import cell_outputs, cell_starts
from .environment import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, KILL_GRACE, MATPLOTLIBRC, OUTPUT_LIMIT, snippet_environment
from .result import Request, SnippetResult, malformed
from .zygote import ForkedRun

BOOTSTRAP = Path(__file__).with_name("_bootstrap.py")
PACKAGE = Path(__file__).resolve().parents[1]  # snipcheck itself: a snippet's reads of it are not tracked
_SVG_DATE = re.compile(r"\s*<dc:date>[^<]*</dc:date>")


class Executor:
    """Runs the snippets of ``snippets_dir``, one fenced process each."""

    def __init__(self, root: Path, snippets_dir: Path, cache_dir: Path) -> None:
        self.root = Path(root).resolve()
        self.snippets_dir = Path(snippets_dir).resolve()
        self.cache_dir = Path(cache_dir).resolve()
        self._active: set[subprocess.Popen | ForkedRun] = set()
        self._runs: dict[str, set[subprocess.Popen | ForkedRun]] = {}  # snippet name -> its processes running now
        self._lock = threading.Lock()
        self.cancel = threading.Event()
        self.sandbox_note: str | None = None
        self.output_limit = OUTPUT_LIMIT  # bytes read of each of a run's stdout and stderr
        self.namespaces = True  # network and PID namespaces where the kernel allows them (off: to test the fallback)
        self.fork_server = True  # runs forked from the pre-imported parent where it can (off: each a fresh interpreter)
        self.fork_note: str | None = None  # why some run did not start from it
        self._fork_note_said = True
        self._server: zygote.Server | None = None

    def run_one(self, name: str, request: Request | None = None) -> SnippetResult:
        """Run one snippet in a fresh interpreter (or one forked from the pre-imported parent, the
        same), fenced in, in an empty folder. A live run (a measurement) always starts from a
        fresh interpreter: the parent's start-up (numpy and matplotlib imported) would come
        before it, and in a build that reuses every other result it is the first run of all."""
        request = request or Request()
        result = self._run(name, request, fork=not request.live)
        return result if result is not None else self._run(name, request, fork=False)

    def _run(self, name: str, request: Request, fork: bool) -> SnippetResult | None:
        """The run; None if the server it was forked from died under it (it is to run again)."""
        path = self.snippets_dir / name
        timeout = request.timeout or DEFAULT_TIMEOUT
        memory = request.memory_mb or DEFAULT_MEMORY_MB
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="snipcheck-") as tmp_name:
            tmp = Path(tmp_name)
            work, scratch, home = tmp / "work", tmp / "tmp", tmp / "home"
            for folder in (work, scratch, home, home / "matplotlib"):
                folder.mkdir()
            (work / "matplotlibrc").write_text(MATPLOTLIBRC, encoding="utf-8")
            marker = f"{os.getpid()}-{threading.get_ident()}-{time.monotonic_ns()}"
            config = {
                "snippet": str(path),
                "root": str(self.root),
                "result": str(tmp / "result.json"),
                "status": str(tmp / "status.json"),
                "timeout": timeout,
                "parent": os.getpid(),
                "namespaces": self.namespaces,
                "live": request.live,
                "memory_mb": memory,
                "cells": cell_starts(path),
                "writable": [str(work), str(scratch), str(home), "/dev"],
                "untracked": [str(self.root / ".venv"), str(self.root / ".git"), str(self.cache_dir), str(PACKAGE)],
            }
            out_path, err_path = tmp / "stdout", tmp / "stderr"
            argv = [sys.executable, "-W", "error", str(BOOTSTRAP), str(tmp / "config.json")]
            env = snippet_environment(scratch, home, marker)
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                process = self._forked(path, config, argv, work, env, out, err) if fork else None
                if process is None:
                    config["parent"] = os.getpid()
                    (tmp / "config.json").write_text(json.dumps(config), encoding="utf-8")
                    try:
                        process = subprocess.Popen(argv, cwd=work, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
                    except OSError as exc:
                        return SnippetResult(name, error=f"cannot start Python: {exc}")
            with self._lock:
                self._active.add(process)
                self._runs.setdefault(name, set()).add(process)
            if self.cancel.is_set():  # stopped while it started: ``stop`` read the runs before this one
                try:
                    process.send_signal(signal.SIGTERM)
                except OSError:
                    pass
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
            if isinstance(process, ForkedRun) and process.lost and not process.signalled and not self.cancel.is_set():
                if process.running(KILL_GRACE):  # its supervisor stops the snippet as the server's end tells it to
                    process.kill()
                self._say_once(self._server.problem if self._server else None)
                return None
            seconds = time.monotonic() - start
            (out_bytes, out_size), (err_bytes, err_size) = self._read_capped(out_path), self._read_capped(err_path)
            stdout, stderr = out_bytes.decode("utf-8", "replace"), err_bytes.decode("utf-8", "replace")
            result = SnippetResult(name, stdout=stdout, stderr=stderr, seconds=seconds)
            too_much = [
                f"{size / (1 << 20):.1f} MiB to {what}"
                for what, size in (("standard output", out_size), ("standard error", err_size))
                if size > self.output_limit
            ]
            status = _read_json(tmp / "status.json") or {}
            report = _read_json(tmp / "result.json")
            if report is not None and isinstance(report.get("sandbox"), str) and report["sandbox"]:
                self.sandbox_note = report["sandbox"]
            if self.cancel.is_set() or status.get("stopped"):
                result.error = "stopped: the build was interrupted, or the snippet was edited while it ran"
                return result
            if status.get("timed_out") or not status:
                left = status.get("left_running", 0)
                result.error = f"timed out after {timeout:g} s (raise it with timeout=SECONDS on the run block)" + (
                    f"; {left} process(es) it started were stopped too" if left else ""
                )
                return result
            if report is None and _size(tmp / "result.json") > 0:
                result.error = (
                    "its result record is malformed (not a JSON object): the snippet wrote to it, so its values "
                    "and the files it read are unknown and nothing of the run is used"
                )
                return result
            if report is None:
                code = status.get("exit")
                how = f"killed by signal {-code}" if isinstance(code, int) and code < 0 else f"exit code {code}"
                hint = (
                    f"\nIf it ran out of memory: a snippet may use at most {memory} MiB (raise it with memory=MIB on the run block)."
                    if isinstance(code, int) and code in (-9, -11, -6)
                    else ""
                )
                tail = "\n".join(stderr.strip().splitlines()[-12:])
                result.error = f"the interpreter ended ({how}) before the snippet finished{hint}" + (f"\n{tail}" if tail else "")
                if too_much:
                    result.error = f"it printed {' and '.join(too_much)}, more than the checker reads; " + result.error
                return result
            wrong = malformed(report)
            if wrong is not None:
                result.error = (
                    f"its result record is malformed ({wrong}): the snippet wrote to it, so its values and the "
                    "files it read are unknown and nothing of the run is used"
                )
                return result
            result.error = report.get("error")
            result.cells, result.failed_cell = cell_outputs(out_bytes, report)
            result.unrecorded = report.get("unrecorded")
            if too_much:
                result.error = (
                    f"it printed {' and '.join(too_much)}; the checker reads at most "
                    f"{self.output_limit / (1 << 20):g} MiB of each (write large data to a file, print a summary)"
                    + (f"\n{result.error}" if result.error else "")
                )
            result.values = report.get("values") or {}
            result.imported = self._verify_reads(report)
            figures, problem = self._collect_figures(work)
            result.figures = figures
            if result.error is None and problem:
                result.error = problem
        return result

    def _forked(self, path: Path, config: dict, argv: list[str], work: Path, env: dict[str, str], out, err) -> ForkedRun | None:
        """The run's supervisor forked from the pre-imported parent, its config written for it;
        None (said once) if the run is to start from a fresh interpreter."""
        if not self.fork_server:
            return None
        self._server = self._server or zygote.shared()
        why = zygote.unusable(self._server, self.root, (path.parent, self.root))
        if why is None:
            config["parent"] = self._server.pid
            Path(argv[-1]).write_text(json.dumps(config), encoding="utf-8")
            process = self._server.spawn(argv, work, env, out.fileno(), err.fileno())
            if isinstance(process, ForkedRun):
                return process
            why = process
        self._say_once(why)
        return None

    def _say_once(self, why: str | None) -> None:
        with self._lock:
            if self.fork_note is None:
                self.fork_note = f"snippets start from a fresh interpreter, not from the pre-imported parent: {why or 'it ended'}"
                self._fork_note_said = False

    def take_fork_note(self) -> str | None:
        """Why runs started from a fresh interpreter rather than the pre-imported parent, once."""
        with self._lock:
            said, self._fork_note_said = self._fork_note_said, True
        return None if said else self.fork_note

    def _read_capped(self, path: Path) -> tuple[bytes, int]:
        """At most ``output_limit`` bytes of ``path``, and the file's whole size."""
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            data = handle.read(self.output_limit)
        return data, size

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

    # -- stopping ---------------------------------------------------------------------------------
    def stop(self) -> None:
        """Stop every running snippet and everything it started (Ctrl-C, or the server stopping)."""
        self.cancel.set()
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

    def stop_runs(self, name: str) -> None:
        """Stop the runs of ``name`` going on now (serve: its source changed under them); their
        supervisors stop everything the snippet started. Does not wait."""
        with self._lock:
            running = list(self._runs.get(name, ()))
        for process in running:
            try:
                process.send_signal(signal.SIGTERM)
            except OSError:
                pass

    def _kill(self, process: subprocess.Popen | ForkedRun) -> None:
        group = (lambda: None) if isinstance(process, ForkedRun) else lambda: os.killpg(process.pid, signal.SIGKILL)
        for kill in (group, lambda: process.kill()):  # a ForkedRun's kill is its group's too
            try:
                kill()
            except OSError:
                pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


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
