"""Starting a run's processes from the pre-imported parent (``_zygote.py``, a fork server that
holds numpy and matplotlib) instead of a fresh interpreter: the same two processes, the same
sandbox set up after the fork, without importing numpy and matplotlib again for every run.

One server per build process (``shared``), started by the first run that asks and used by every
executor after it; it dies with the process. A server that could not start, one that holds a
module from the project, one that died, or a run whose project could shadow a module the server
holds: the run starts from a fresh interpreter, as it always could (``Executor``), which says so
once. A run whose server dies under it runs again, from a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import weakref
from pathlib import Path

from .environment import MATPLOTLIBRC, snippet_environment

SERVER = Path(__file__).with_name("_zygote.py")
START_TIMEOUT = 60.0  # seconds the server has to import numpy and matplotlib, or to fork a run
_AVAILABLE = sys.platform.startswith("linux") and all(
    hasattr(module, name) for module, name in ((os, "fork"), (os, "pidfd_open"), (signal, "pidfd_send_signal"), (socket, "send_fds"))
)


class ForkedRun:
    """A run's supervisor forked by the server: what the executor asks of a ``Popen``. Its pidfd
    names that process and no other, however long after its end it is signalled."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid, self._pidfd = pid, pidfd
        weakref.finalize(self, os.close, pidfd)
        self._ended = threading.Event()
        self.lost = False  # the server died before the run ended
        self.signalled = False  # stopped by the executor

    def send_signal(self, signum: int) -> None:
        self.signalled = True
        try:
            signal.pidfd_send_signal(self._pidfd, signum)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        """SIGKILL to the supervisor's process group (while the supervisor, its leader, lives) and to it."""
        if self.running():
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except OSError:
                pass
        self.send_signal(signal.SIGKILL)

    def running(self, timeout: float = 0) -> bool:
        """Whether the supervisor is still running (waiting up to ``timeout`` seconds for its end)."""
        return not select.select([self._pidfd], [], [], timeout)[0]

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the server has reaped the run and killed what it left behind."""
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired(str(SERVER), timeout or 0)

    def _end(self, lost: bool) -> None:
        self.lost = lost
        self._ended.set()


class Server:
    """The fork server, seen from the build: started by ``__init__`` (which waits until it has
    imported), then ``spawn`` per run. ``problem``: why it cannot be used, once it cannot."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.marker = f"zygote-{os.getpid()}-{id(self)}"  # in its environment, and its forks', at their start
        self.names: list[str] = []  # top-level names of the modules it imported
        self.files: list[str] = []  # the files of every module it holds
        self.held: dict[Path, str | None] = {}  # project root -> the project module it holds, said (``unusable``)
        self.problem: str | None = None if _AVAILABLE else "this platform has no fork with pidfds (Linux 5.3 or later)"
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._waiting: dict[int, list] = {}  # run id -> [event, the ForkedRun or why it was refused]
        self._runs: dict[int, ForkedRun] = {}
        self._next = 0
        self._channel: socket.socket | None = None
        if self.problem is None:
            threading.Thread(target=self._keep, name="snipcheck-zygote", daemon=True).start()
            if not self._ready.wait(START_TIMEOUT):
                self._fail(f"it had not imported numpy and matplotlib after {START_TIMEOUT:g} s")

    def spawn(self, argv: list[str], cwd: Path, env: dict[str, str], out: int, err: int) -> ForkedRun | str:
        """Fork the process ``argv`` (``python -W error _bootstrap.py CONFIG``) stands for, with
        ``cwd``, ``env`` and the files ``out`` and ``err`` as stdout and stderr; or why not."""
        with self._lock:
            if self.problem is not None or self._channel is None:
                return self.problem or "it is not running"
            ident, self._next = self._next, self._next + 1
            slot = self._waiting[ident] = [threading.Event(), None]
            message = json.dumps({"id": ident, "argv": argv, "cwd": str(cwd), "env": env}).encode()
            try:
                socket.send_fds(self._channel, [message], [out, err])
            except OSError as exc:
                del self._waiting[ident]
                return f"it could not be reached ({exc})"
        if not slot[0].wait(START_TIMEOUT):
            return f"it forked no process within {START_TIMEOUT:g} s"
        return slot[1] if slot[1] is not None else self.problem or "it ended"

    def close(self) -> None:
        """End the server (its runs' supervisors stop theirs, as at the build's end)."""
        with self._lock:
            channel = self._channel
        if channel is not None:
            try:
                channel.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # -- the thread the server lives with ----------------------------------------------------------
    def _keep(self) -> None:
        """Start the server (its PR_SET_PDEATHSIG ties it to this thread, which lives as long as it)
        and hand on its messages until it ends."""
        folder = Path(tempfile.mkdtemp(prefix="snipcheck-zygote-"))
        work, tmp, home = folder / "work", folder / "tmp", folder / "home"
        for path in (work, tmp, home, home / "matplotlib"):
            path.mkdir()
        (work / "matplotlibrc").write_text(MATPLOTLIBRC, encoding="utf-8")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with tempfile.TemporaryFile() as log:
            try:
                process = subprocess.Popen(
                    [sys.executable, "-W", "error", str(SERVER), str(theirs.fileno()), str(os.getpid())],
                    cwd=work,
                    env=snippet_environment(tmp, home, self.marker),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    pass_fds=(theirs.fileno(),),
                    start_new_session=True,
                )
            except OSError as exc:
                shutil.rmtree(folder, ignore_errors=True)
                self._fail(f"it could not start ({exc})")
                return
            finally:
                theirs.close()
            with self._lock:
                self._channel = ours
            try:
                while self._take(ours, folder):
                    pass
            finally:
                try:
                    code = process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    code = process.wait()
                shutil.rmtree(folder, ignore_errors=True)
                log.seek(0)
                tail = log.read().decode("utf-8", "replace").strip().splitlines()[-1:]
                self._fail(f"it ended (exit code {code})" + (f": {tail[0]}" if tail else ""))
                ours.close()

    def _take(self, channel: socket.socket, folder: Path) -> bool:
        """Hand on one message from the server; False once it has ended."""
        try:
            data, fds, _, _ = socket.recv_fds(channel, 1 << 20, 1)
        except OSError:
            return False
        if not data:
            return False
        message = json.loads(data)
        if "ready" in message:
            self.pid, self.names, self.files = message["ready"], message["names"], message["files"]
            shutil.rmtree(folder, ignore_errors=True)  # nothing it imported reads it again
            self._ready.set()
        elif "failed" in message:
            self._fail(f"numpy and matplotlib could not be imported in it ({message['failed']})")
        elif "done" in message:
            with self._lock:
                run = self._runs.pop(message["id"], None)
            if run is not None:
                run._end(lost=False)
        else:
            run = ForkedRun(message["pid"], fds[0]) if "pid" in message and fds else None
            with self._lock:
                slot = self._waiting.pop(message["id"], None)
                if run is not None:
                    self._runs[message["id"]] = run
            if slot is None and run is not None:
                run.kill()  # its spawn gave up waiting
            elif slot is not None:
                slot[1] = run if run is not None else str(message.get("refused", "it refused the run"))
                slot[0].set()
        return True

    def _fail(self, problem: str) -> None:
        with self._lock:
            self.problem = self.problem or problem
            waiting, runs = list(self._waiting.values()), list(self._runs.values())
            self._waiting.clear()
            self._runs.clear()
        for slot in waiting:
            slot[0].set()
        for run in runs:
            run._end(lost=True)
        self._ready.set()


_shared: Server | None = None
_shared_lock = threading.Lock()


def shared() -> Server:
    """This process's server, started now if it has none (or the one it had has ended)."""
    global _shared
    with _shared_lock:
        if _shared is None or (_shared.problem is not None and _AVAILABLE):
            _shared = Server()
        return _shared


def unusable(server: Server, root: Path, folders: tuple[Path, ...]) -> str | None:
    """Why a run of the project at ``root`` may not start from ``server``: it holds a module from
    the project (whose reads no run would record), or a module a file in ``folders`` (the
    snippet's and the project's, first on a run's ``sys.path``) could stand in for."""
    if server.problem is not None:
        return server.problem
    if root not in server.held:
        venv, own = root / ".venv", SERVER.resolve()
        files = [Path(file).resolve() for file in server.files]
        inside = [p for p in files if p.is_relative_to(root) and not p.is_relative_to(venv) and p != own]
        server.held[root] = f"it holds a module from the project ({inside[0].relative_to(root)}), whose reads no run would record" if inside else None
    if server.held[root] is not None:
        return server.held[root]
    names = set(server.names)
    for folder in folders:
        try:
            shadows = sorted({entry.partition(".")[0] for entry in os.listdir(folder)} & names)
        except OSError:
            continue
        if shadows:
            return f"{folder / shadows[0]} could stand in for the module {shadows[0]} it holds"
    return None
