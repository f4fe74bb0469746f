"""The pre-imported parent every snippet's process is forked from: numpy and matplotlib are
imported once, here, instead of once per run.

Started by the runner (``zygote.py``) as ``python -W error _zygote.py FD PARENT`` with a snippet
run's fixed environment, in a folder holding the runs' matplotlibrc, so that what numpy and
matplotlib take from their surroundings at import is what a fresh run's imports take. Standard
library only; imports nothing of the project (its own folder is off ``sys.path`` while it
imports; the runner checks the modules it reports). It talks to the runner over the one socket
it inherits (FD, one end of a socketpair: nothing else can reach it), one JSON object a message:

- once it has imported: ``{"ready": pid, "names": [...], "files": [...]}`` (the top-level names
  of the modules it imported, the start-up's aside, and the files of all it holds), or
  ``{"failed": why}``;
- per run the runner sends ``{"id", "argv", "cwd", "env"}`` (``argv``: the command line of the
  fresh interpreter the run stands for, ``python -W error _bootstrap.py CONFIG``) with the run's
  stdout and stderr; it forks and answers ``{"id", "pid"}`` with a pidfd of the new process (or
  ``{"id", "refused": why}``) and, once that process has ended and what it left behind is
  killed, ``{"id", "done": status}``.

The forked process becomes what that command would have started: a session of its own, stdin
from /dev/null, stdout and stderr the run's files and no other file descriptor, the run's folder
and environment, the paths the imports took from this process's environment taken again from
the run's; then it runs the script (_bootstrap.py) as ``__main__``. Everything that fences the
snippet in happens there, after the fork, as in a fresh run. This process forks only while it
has one thread, dies with the build (``PR_SET_PDEATHSIG``), and is a child subreaper: what a run
leaves when its supervisor is killed comes to it and is killed.
"""

from __future__ import annotations

import sys

STARTUP = set(sys.modules)  # what every interpreter holds before it runs a script

import ctypes  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import select  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

# What nearly every run imports. Not torch: it would spare its import only to the few runs that
# use it, while every run would carry its address space, which the memory cap counts.
PRELOAD = ("numpy", "matplotlib.pyplot")


def main() -> int:
    channel = socket.socket(fileno=int(sys.argv[1]))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: the build's end is this process's
    if os.getppid() != int(sys.argv[2]):
        return 0  # the build died before PR_SET_PDEATHSIG was in force
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    own = sys.path.pop(0)  # this folder (snipcheck's): nothing is imported from it
    try:
        for name in PRELOAD:
            __import__(name)
        _forget_environment()
    except BaseException as exc:  # noqa: BLE001 - the runner goes on without this process
        _send(channel, {"failed": f"{type(exc).__name__}: {exc}"})
        return 0
    finally:
        sys.path.insert(0, own)
    files = [getattr(module, "__file__", None) for module in list(sys.modules.values())]
    names = sorted({name.partition(".")[0] for name in set(sys.modules) - STARTUP})
    _send(channel, {"ready": os.getpid(), "names": names, "files": sorted({f for f in files if isinstance(f, str)})})
    _serve(channel)
    return 0


def _send(channel: socket.socket, message: dict, fds: tuple[int, ...] = ()) -> None:
    socket.send_fds(channel, [json.dumps(message).encode()], list(fds))


def _serve(channel: socket.socket) -> None:
    runs: dict[int, tuple[object, int]] = {}  # pidfd -> (the run's id, its pid)
    while True:
        ready, _, _ = select.select([channel, *runs], [], [])
        for fd in ready:
            if fd is not channel:
                ident, pid = runs.pop(fd)
                _, status = os.waitpid(pid, 0)
                os.close(fd)
                _sweep({pid for _, pid in runs.values()})
                _send(channel, {"id": ident, "done": status})
                continue
            try:
                data, fds, _, _ = socket.recv_fds(channel, 1 << 20, 2)
            except OSError:
                return
            if not data:
                return  # the runner is gone: every run's supervisor stops too (its PR_SET_PDEATHSIG)
            _start(channel, json.loads(data), fds, runs)


def _start(channel: socket.socket, request: dict, fds: list[int], runs: dict) -> None:
    threads = max(threading.active_count(), len(os.listdir("/proc/self/task")))
    argv = request.get("argv") or []
    why = (
        f"it has {threads} threads, and a fork copies one"
        if threads > 1
        else "the run's output files did not come"
        if len(fds) != 2
        else f"the run asks for another interpreter or other flags ({argv[:-2]} here {sys.orig_argv[:-3]})"
        if argv[:-2] != sys.orig_argv[:-3]
        else None
    )
    if why is not None:
        for fd in fds:
            os.close(fd)
        _send(channel, {"id": request.get("id"), "refused": why})
        return
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            code = _become(channel, request, fds)
        finally:
            os._exit(code)
    for fd in fds:
        os.close(fd)
    pidfd = os.pidfd_open(pid)  # before any wait: the pid cannot be another process's yet
    runs[pidfd] = (request.get("id"), pid)
    _send(channel, {"id": request.get("id"), "pid": pid}, (pidfd,))


def _become(channel: socket.socket, request: dict, fds: list[int]) -> int:
    """In the forked process: what Popen and a fresh interpreter would have made of it, then the
    bootstrap. Returns its exit code."""
    channel.close()
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    for fd, target in ((null, 0), (fds[0], 1), (fds[1], 2)):
        os.dup2(fd, target)
    os.closerange(3, 1 << 20)  # the socket, the other runs' pidfds: nothing but 0, 1 and 2
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    _forget_environment()
    sys.orig_argv, sys.argv = list(request["argv"]), list(request["argv"][-2:])
    import runpy

    code = 0
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except BaseException:  # noqa: BLE001 - reported as a fresh interpreter would
        import traceback

        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    return code


def _forget_environment() -> None:
    """What the imports took from the environment (matplotlib's configuration and cache folders,
    the temporary folder) taken again from the environment in force now."""
    import tempfile

    tempfile.tempdir = None
    mpl = sys.modules.get("matplotlib")
    if mpl is None:
        return
    for getter in (mpl.get_configdir, mpl.get_cachedir):
        cells = dict(zip(getter.__code__.co_freevars, getter.__closure__ or (), strict=True))
        cells["called"].cell_contents = False  # matplotlib's _logged_cached: computed again at the next call
        getter()
    style = sys.modules.get("matplotlib.style")
    if style is not None:
        style.USER_LIBRARY_PATHS[:] = [os.path.join(mpl.get_configdir(), "stylelib")]
    tex = sys.modules.get("matplotlib.texmanager")
    if tex is not None:
        tex.TexManager._cache_dir = type(tex.TexManager._cache_dir)(mpl.get_cachedir(), "tex.cache")


def _children() -> list[int]:
    try:
        with open(f"/proc/self/task/{os.getpid()}/children", encoding="ascii") as handle:
            return [int(pid) for pid in handle.read().split()]
    except OSError:
        return []


def _sweep(supervisors: set[int]) -> None:
    """Kill and reap every child that is no run's supervisor: what a run left running when its
    supervisor was killed before it could stop it (orphans come to this subreaper)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        orphans = [pid for pid in _children() if pid not in supervisors]
        if not orphans:
            return
        for pid in orphans:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in orphans:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
        time.sleep(0.002)


if __name__ == "__main__":
    sys.exit(main())
