"""Runs one snippet in a fresh interpreter, fenced in, and writes what it left behind as JSON.

Invoked by the runner as ``python _bootstrap.py CONFIG_JSON`` (by path, so no part of snipcheck
is imported into the snippet's interpreter), or run as ``__main__`` in a process forked from the
pre-imported parent (``_zygote.py``), which stands for that command exactly. Standard library
only. Two processes:

- the supervisor (this process): becomes a child subreaper (Linux ``prctl``), so every process
  the snippet starts, even one that calls ``setsid``, stays its descendant; it waits for the
  snippet up to its timeout, then kills whatever the snippet left running, reaps it, and writes
  a status file. SIGTERM (the build stopping) does the same at once, and so does its parent's
  death, however it died (``PR_SET_PDEATHSIG``): the build's, or the pre-imported parent's, which
  dies with the build;
- the snippet process (a fork): caps its address space (``RLIMIT_AS``), the size of any file it
  writes, and core dumps; where the kernel has Landlock, restricts itself and every process it
  starts to writing only inside its own working and temporary folders, opening no TCP connection
  and signalling no process outside; installs an audit hook that refuses Python-level writes
  outside those folders (the whole guard where Landlock is missing) and records every project
  file it opens or lists, with its hash at that moment; then runs the snippet and writes its
  module-level values, its error (with the snippet's own file:line) and the files it read.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import signal
import sys
import time

MAX_ARRAY_SIZE = 10_000  # larger arrays keep only their shape
MAX_FILE_BYTES = 256 << 20  # no file a snippet writes grows beyond this

# Landlock (linux/landlock.h)
_SYS_CREATE, _SYS_ADD_RULE, _SYS_RESTRICT = 444, 445, 446
_FS_WRITE = sum(1 << b for b in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12))  # write, remove, make anything
_FS_REFER, _FS_TRUNCATE = 1 << 13, 1 << 14
_NET_TCP = (1 << 0) | (1 << 1)  # bind, connect
_SCOPE = (1 << 0) | (1 << 1)  # abstract unix sockets, signals


class _Stop(Exception):
    pass


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
    libc = ctypes.CDLL(None, use_errno=True)
    subreaper = sys.platform.startswith("linux") and libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    status = {"timed_out": False, "stopped": False, "exit": None, "signal": None, "subreaper": subreaper, "left_running": 0}
    # CLONE_NEWPID (root or CAP_SYS_ADMIN only): the next fork is pid 1 of a namespace of its own
    namespaces = config.get("namespaces", True)
    pid_namespace = namespaces and sys.platform.startswith("linux") and libc.unshare(0x20000000) == 0
    exit_read, exit_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(exit_read)
        try:
            unfenced = _isolate(libc, False) if namespaces else ["network and PID namespaces (turned off)"]
            code = _init(config, libc, exit_write) if pid_namespace else _child(config, libc, unfenced)
        except BaseException:  # noqa: BLE001 - nothing may escape the child but its exit
            code = 70
        os._exit(code)
    os.close(exit_write)

    def stop(signum, frame):
        raise _Stop(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, float(config["timeout"]))
    if sys.platform.startswith("linux"):  # the build dying, even by SIGKILL, stops this run as SIGTERM does
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    try:
        if os.getppid() != config.get("parent", os.getppid()):
            raise _Stop(signal.SIGTERM)  # it died before PR_SET_PDEATHSIG was in force
        _, raw = os.waitpid(pid, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        status["exit"] = os.waitstatus_to_exitcode(int(os.read(exit_read, 32) or raw) if pid_namespace else raw)
    except _Stop as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)
        status["timed_out" if exc.args[0] == signal.SIGALRM else "stopped"] = True
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    status["left_running"] = _kill_descendants(pid, pid_namespace)
    if status["exit"] is not None and status["exit"] < 0:
        status["signal"] = -status["exit"]
    with open(config["status"], "w", encoding="utf-8") as handle:
        json.dump(status, handle)
    return 0


def _children(me: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(entry))
    return found


def _namespace(init: int) -> tuple[set[int], set[int]]:
    """The processes in ``init``'s PID namespace: (those the snippet started, the init and the
    snippet itself), by their pids here."""
    try:
        target = os.readlink(f"/proc/{init}/ns/pid")
    except OSError:
        return set(), {init}
    started, own = set(), {init}
    for entry in os.listdir("/proc"):
        try:
            if not entry.isdigit() or os.readlink(f"/proc/{entry}/ns/pid") != target:
                continue
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as handle:
                inner = next(line for line in handle if line.startswith("NSpid:")).split()[-1]
        except (OSError, StopIteration):
            continue
        (own if inner in ("1", "2") else started).add(int(entry))
    return started, own


def _kill_descendants(first: int, pid_namespace: bool = False) -> int:
    """Kill the snippet and everything it started; orphans come to this subreaper as their
    parents die (in a PID namespace, they all die with its init, ``first``). Returns how many
    processes were still running besides the snippet."""
    started, own = _namespace(first) if pid_namespace else (set(), {first})
    me, killed, deadline = os.getpid(), set(), time.monotonic() + 10
    try:
        os.kill(first, signal.SIGKILL)
    except ProcessLookupError:
        pass
    while time.monotonic() < deadline:
        kids = _children(me) if sys.platform.startswith("linux") else []
        for kid in kids:
            try:
                os.kill(kid, signal.SIGKILL)
                killed.add(kid)
            except ProcessLookupError:
                pass
        try:
            while True:
                pid, _ = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
        except ChildProcessError:
            if not kids:
                break
        time.sleep(0.002)
    return len((killed | started) - own)


# -- the snippet's process ----------------------------------------------------------------------------


def _init(config: dict, libc, exit_fd: int) -> int:
    """Pid 1 of the snippet's PID namespace: sets up its namespaces, runs the snippet as its one
    child (pid 1 itself would ignore signals it has no handler for) and reaps every orphan; hands
    the snippet's wait status to the supervisor. When it ends, the kernel kills the namespace."""
    unfenced = _isolate(libc, True)
    pid = os.fork()
    if pid == 0:
        os.close(exit_fd)
        try:
            os._exit(_child(config, libc, unfenced))
        except BaseException:  # noqa: BLE001 - nothing may escape the child but its exit
            os._exit(70)
    while True:
        done, raw = os.waitpid(-1, 0)
        if done == pid:
            os.write(exit_fd, str(raw).encode())
            return 0


def _child(config: dict, libc, unfenced: list[str]) -> int:
    import resource

    result_fd = os.open(config["result"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.set_inheritable(result_fd, False)
    writable = [os.path.realpath(p) for p in config["writable"]]
    memory = int(config["memory_mb"]) << 20
    for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, MAX_FILE_BYTES)):
        try:
            resource.setrlimit(limit, (value, value))
        except (ValueError, OSError):
            pass
    sandbox = _landlock(libc, writable) + (f"; not enforced: {'; '.join(unfenced)}" if unfenced else "")
    root = os.path.realpath(config["root"])
    snippet = config["snippet"]
    tracker = _Tracker(root, writable, [os.path.realpath(p) for p in config["untracked"]])
    _compile_project_modules_from_source(root)
    sys.path[:] = [os.path.dirname(os.path.realpath(snippet)), root] + [p for p in sys.path[1:] if p not in (root,)]
    sys.argv = [snippet]
    sys.addaudithook(tracker.hook)
    os.open = _noting_dir_fd(os.open, tracker)
    if not config.get("live"):  # a live measurement reads the clock by declaration
        _Unsteady(tracker).install()
    tracker.active = True
    error, namespace = None, {}
    cells, ran = config.get("cells") or [], {"cells": [], "failed": None, "line": None}
    import runpy

    try:
        namespace = _run_cells(snippet, cells, ran) if cells else runpy.run_path(snippet, run_name="__main__")
    except SystemExit as exc:
        where = _snippet_line(exc.__traceback__, snippet, root)
        error = (
            f"the snippet called sys.exit({exc.code!r}){where}: a snippet must run to its end "
            "(the code after it never ran, and its values were not recorded)"
        )
    except MemoryError:
        error = _traceback(root) + (
            f"the snippet ran out of memory: it may use at most {config['memory_mb']} MiB of address space "
            "(raise it with memory=MIB on the run block)"
        )
    except BaseException:  # noqa: BLE001 - reported by the parent, with the snippet's own file:line
        error = _traceback(root)
    tracker.active = False
    if error is not None and ran["failed"] is not None:
        where = f"{os.path.relpath(os.path.realpath(snippet), root)}:{ran['line']}"
        error = error.rstrip("\n") + f"\n(in cell {ran['failed']!r}, at {where})\n"
    if error is None:
        error = _stdout_problem()
    else:
        _stdout_problem()
    values = _values(namespace) if error is None else {}
    report = {
        "error": error,
        "values": values,
        "reads": tracker.reads,
        "listed": tracker.listed,
        "sandbox": sandbox,
        "cells": ran["cells"],
        "failed_cell": ran["failed"],
        "unrecorded": tracker.unrecorded,
    }
    data = json.dumps(report, allow_nan=True).encode("utf-8")
    os.ftruncate(result_fd, 0)  # whatever the snippet wrote to it is gone
    os.lseek(result_fd, 0, os.SEEK_SET)
    view = memoryview(data)
    while view:
        view = view[os.write(result_fd, view) :]
    os.close(result_fd)
    return 0


def _run_cells(snippet: str, cells: list, ran: dict) -> dict:
    """Run a snippet split into cells (``[[name, line of its marker], ...]``) as ``runpy`` runs a
    whole file, one module, but cell by cell, noting in ``ran["cells"]`` each cell's
    ``[name, start, end]`` in the standard output file (flushed at each boundary), and in
    ``ran["failed"]``/``ran["line"]`` the cell that raised and the snippet's line it raised at.
    Every cell is compiled, with the file's own line numbers, before the first one runs."""
    import __future__

    import builtins
    import io
    import types

    future = 0
    for feature in __future__.all_feature_names:
        future |= getattr(__future__, feature).compiler_flag
    with io.open_code(snippet) as handle:
        lines = io.StringIO(handle.read().decode("utf-8"), newline="").readlines()
    codes, flags = [], 0
    for k, (name, line) in enumerate(cells):
        first = 1 if k == 0 else int(line)  # blank lines before the first marker go with it
        last = int(cells[k + 1][1]) if k + 1 < len(cells) else len(lines) + 1
        ran["failed"], ran["line"] = name, line
        try:
            code = compile("\n" * (first - 1) + "".join(lines[first - 1 : last - 1]), snippet, "exec", flags=flags, dont_inherit=True)
        except SyntaxError as exc:
            ran["line"] = exc.lineno or line
            raise
        flags |= code.co_flags & future
        codes.append(code)
    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=snippet, __cached__=None, __loader__=None, __package__="", __spec__=None, __builtins__=builtins)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        for (name, line), code in zip(cells, codes, strict=True):
            start = _stdout_offset()
            ran["failed"], ran["line"] = name, line
            try:
                exec(code, module.__dict__)
            except BaseException as exc:
                frames = [tb for tb in _frames(exc.__traceback__) if tb.tb_frame.f_code.co_filename == snippet]
                ran["line"] = frames[-1].tb_lineno if frames else line
                raise
            finally:
                ran["cells"].append([name, start, _stdout_offset()])
            ran["failed"] = None
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved
    return dict(module.__dict__)


def _frames(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def _stdout_offset() -> int | None:
    """Where standard output stands in its file, everything printed so far flushed to it."""
    try:
        sys.stdout.flush()
        return os.lseek(1, 0, os.SEEK_CUR)
    except (OSError, ValueError, AttributeError):
        return None


def _stdout_problem() -> str | None:
    try:
        if sys.stdout is None or sys.stdout.closed:
            raise OSError(errno.EBADF, "closed")
        sys.stdout.flush()
        os.fstat(1)
    except (OSError, ValueError):
        return "the snippet closed its standard output, so what it printed may be lost: leave sys.stdout open (the page documents what it prints)"
    try:
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    return None


def _snippet_line(tb, snippet: str, root: str) -> str:
    import traceback

    frames = [f for f in traceback.extract_tb(tb) if os.path.realpath(f.filename) == os.path.realpath(snippet)]
    if not frames:
        return ""
    return f" at {os.path.relpath(os.path.realpath(snippet), root)}:{frames[-1].lineno}"


def _isolate(libc, pid_namespace: bool) -> list[str]:
    """A network namespace of its own (no interface but a loopback that is down: no UDP, TCP or
    raw socket reaches anything) and, in its own PID namespace, a mount namespace with a /proc
    that shows only the snippet's tree (the build's environment is out of reach) and a /dev/shm
    of its own. Returns what could not be set up."""
    if not sys.platform.startswith("linux"):
        return ["network and PID namespaces (Linux only)"]
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    missing = []
    if libc.unshare(0x40000000) != 0:  # CLONE_NEWNET
        missing.append(f"network namespace ({os.strerror(ctypes.get_errno())}: UDP reaches the network)")
    if not pid_namespace:
        return missing + ["PID namespace (other processes, the build's environment among them, are visible in /proc)"]
    if (
        libc.unshare(0x00020000) != 0  # CLONE_NEWNS
        or libc.mount(None, b"/", None, (1 << 14) | (1 << 18), None) != 0  # MS_REC | MS_PRIVATE
        or libc.mount(b"proc", b"/proc", b"proc", 2 | 4 | 8, None) != 0
    ):  # MS_NOSUID | MS_NODEV | MS_NOEXEC
        return missing + [f"private /proc ({os.strerror(ctypes.get_errno())}: other processes' entries are visible)"]
    if os.path.isdir("/dev/shm") and libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", 2 | 4, b"size=256m,mode=1777") != 0:
        missing.append(f"private /dev/shm ({os.strerror(ctypes.get_errno())})")
    return missing


def _landlock(libc, writable: list[str]) -> str:
    """Restrict writes to ``writable`` (and /dev), TCP and signals; say what is in force."""
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    abi = syscall(_SYS_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        return "python-only: this kernel has no Landlock, so only Python-level writes are refused"
    fs = _FS_WRITE | (_FS_REFER if abi >= 2 else 0) | (_FS_TRUNCATE if abi >= 3 else 0)
    attr = (ctypes.c_uint64 * 3)(fs, _NET_TCP if abi >= 4 else 0, _SCOPE if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = syscall(_SYS_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return f"python-only: Landlock refused a ruleset ({os.strerror(ctypes.get_errno())})"
    try:
        for path in writable + ["/dev"]:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            rule = (ctypes.c_uint8 * 12)()
            ctypes.memmove(rule, ctypes.byref(ctypes.c_uint64(fs)), 8)
            ctypes.memmove(ctypes.byref(rule, 8), ctypes.byref(ctypes.c_int32(fd)), 4)
            outcome = syscall(_SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1), ctypes.byref(rule), ctypes.c_uint32(0))
            os.close(fd)
            if outcome != 0:
                return f"python-only: Landlock refused a rule for {path} ({os.strerror(ctypes.get_errno())})"
        libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS, required to restrict without privileges
        if syscall(_SYS_RESTRICT, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            return f"python-only: Landlock could not restrict ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(ruleset)
    return f"landlock abi {abi}"


def _compile_project_modules_from_source(root: str) -> None:
    """Project modules always run from their source, which the audit hook hashes: a stale
    ``__pycache__`` file (an edit within the same second, same size) can never stand in for it."""
    import importlib.machinery

    loader = importlib.machinery.SourceFileLoader
    original = loader.get_code
    venv = os.path.join(root, ".venv") + os.sep

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        real = os.path.realpath(path)
        if real.startswith(root + os.sep) and not real.startswith(venv):
            return self.source_to_code(self.get_data(path), path)
        return original(self, fullname)

    loader.get_code = get_code


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PATH_EVENTS = {
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.mkdir": (0,),
    "os.rename": (0, 1),
    "os.link": (0, 1),
    "os.symlink": (1,),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.utime": (0,),
    "shutil.rmtree": (0,),
    "shutil.move": (0, 1),
    "shutil.copyfile": (1,),
    "os.mkfifo": (0,),
    "os.mknod": (0,),
}


_STARTS = ("subprocess.Popen", "os.system", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.exec")


class _Tracker:
    """The audit hook: refuses writes outside the writable folders; records project reads."""

    def __init__(self, root: str, writable: list[str], untracked: list[str]) -> None:
        self.root, self.writable, self.untracked = root, writable, untracked
        self.reads: dict[str, dict] = {}
        self.listed: dict[str, str] = {}
        self.unrecorded: str | None = None  # why some reads cannot be recorded (the run is then not cached)
        self.active = False

    def _inside(self, path: str, folders: list[str]) -> bool:
        return any(path == f or path.startswith(f + os.sep) for f in folders)

    def _real(self, path) -> str | None:
        if isinstance(path, int) or path is None:
            return None
        try:
            return os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return None

    def _refuse(self, path) -> None:
        raise PermissionError(
            errno.EACCES,
            f"snipcheck: a snippet may write only inside its working folder (its files are published as figures); not to {os.fsdecode(path)!r}",
        )

    def hook(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        if event == "open":
            path, mode, flags = args
            real = self._real(path)
            if real is None:
                return
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writing:
                if not self._inside(real, self.writable):
                    self._refuse(path)
                return
            self._record(real)
        elif event in _PATH_EVENTS:
            for index in _PATH_EVENTS[event]:
                if index < len(args):
                    real = self._real(args[index])
                    if real is not None and not self._inside(real, self.writable):
                        self._refuse(args[index])
        elif (event in _STARTS or event == "os.fwalk") and self._from_project():
            self.unrecorded = (
                self.unrecorded
                or (f"it starts a process ({event})" if event in _STARTS else "it walks a folder with os.fwalk") + ", whose reads are not recorded"
            )
        elif event in ("socket.connect", "socket.sendto") and len(args) > 1 and isinstance(args[1], (str, bytes)):
            address = os.fsdecode(args[1])  # a Unix socket's path (an abstract one starts with NUL)
            if address and not address.startswith("\0") and not self._inside(os.path.realpath(address), self.writable):
                raise PermissionError(errno.EACCES, f"snipcheck: a snippet may reach no Unix socket outside its folders; not {address!r}")
        elif event in ("os.listdir", "os.scandir") and not _from_import_system():
            real = self._real(args[0] if args else ".")
            if real is not None and self._tracked(real) and os.path.isdir(real):
                self.active = False
                try:
                    names = sorted(os.listdir(real))
                finally:
                    self.active = True
                self.listed[os.path.relpath(real, self.root) + "/"] = hashlib.sha256("\0".join(names).encode()).hexdigest()

    def _from_project(self) -> bool:
        """True if the code that called into the standard library is the snippet's or the
        project's (not a library's, as matplotlib running fc-list once for its font cache)."""
        import sysconfig

        stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if not name.startswith("<") and not os.path.realpath(name).startswith(stdlib):
                real = os.path.realpath(name)
                return real != os.path.realpath(__file__) and self._tracked(real)
            frame = frame.f_back
        return False

    def _tracked(self, real: str) -> bool:
        return real.startswith(self.root + os.sep) and not self._inside(real, self.untracked)

    def _record(self, real: str) -> None:
        if real.endswith(".pyc") and os.sep + "__pycache__" + os.sep in real:
            import importlib.util

            try:
                real = importlib.util.source_from_cache(real)
            except ValueError:
                pass
        if not self._tracked(real):
            return
        rel = os.path.relpath(real, self.root)
        self.active = False
        try:
            if rel in self.reads:  # read again: a file that changed since its first read is flagged
                now = os.stat(real)
                if [now.st_mtime_ns, now.st_ctime_ns, now.st_size, now.st_ino] != self.reads[rel]["stat"]:
                    self.reads[rel]["stat"] = None
                return
            with open(real, "rb") as handle:
                before = os.fstat(handle.fileno())
                digest = hashlib.sha256(handle.read()).hexdigest()
            self.reads[rel] = {"sha256": digest, "stat": [before.st_mtime_ns, before.st_ctime_ns, before.st_size, before.st_ino]}
        except (OSError, IsADirectoryError):
            pass
        finally:
            self.active = True


def _noting_dir_fd(os_open, tracker: _Tracker):
    """``os.open`` that notes a path taken relative to a folder (``dir_fd=``, as ``opener=``
    functions do): the audit hook sees only the relative path, so the read cannot be recorded."""

    def open_(path, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is not None and tracker.active:
            tracker.unrecorded = tracker.unrecorded or "it opens a file relative to a folder (dir_fd=), whose reads are not recorded"
        return os_open(path, flags, mode, dir_fd=dir_fd)

    return open_


def _from_import_system() -> bool:
    """True if the import machinery lists a folder (to find modules), not the snippet itself."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


# What makes a run's output depend on when or where it ran, not on its inputs: the clock and
# randomness nobody seeded. A call from the project's own code (a snippet, a project module; not
# a library timing itself) marks the run never cached: every build runs it again, side by side
# twice, so a value that changes shows as output that changes run to run.
_CLOCK = (
    "time",
    "time_ns",
    "perf_counter",
    "perf_counter_ns",
    "monotonic",
    "monotonic_ns",
    "process_time",
    "process_time_ns",
    "thread_time",
    "thread_time_ns",
)
_RANDOM = (
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "gauss",
    "normalvariate",
    "getrandbits",
    "randbytes",
    "triangular",
    "betavariate",
    "expovariate",
    "lognormvariate",
    "gammavariate",
    "vonmisesvariate",
    "paretovariate",
    "weibullvariate",
)
_NUMPY_LEGACY = (
    "rand",
    "randn",
    "random",
    "random_sample",
    "randint",
    "normal",
    "uniform",
    "choice",
    "shuffle",
    "permutation",
    "standard_normal",
    "integers",
    "binomial",
    "poisson",
    "exponential",
    "bytes",
)


class _Unsteady:
    """Wraps the clock and unseeded randomness so a call from the project is noted on ``tracker``."""

    def __init__(self, tracker: _Tracker) -> None:
        self.tracker, self.seeded = tracker, {"random": False, "numpy.random": False}

    def caller(self) -> str | None:
        """``file:line`` of the project code that made the call, or None: a library's own call, the
        standard library's among them (multiprocessing drawing a key, logging stamping a record)."""
        frame, here = sys._getframe(1), os.path.realpath(__file__)
        while frame is not None and os.path.realpath(frame.f_code.co_filename) == here:
            frame = frame.f_back
        if frame is None or frame.f_code.co_filename.startswith("<"):
            return None
        real = os.path.realpath(frame.f_code.co_filename)
        return f"{os.path.relpath(real, self.tracker.root)}:{frame.f_lineno}" if self.tracker._tracked(real) else None

    def note(self, what: str, call: str) -> None:
        tracker = self.tracker
        if tracker.active and tracker.unrecorded is None:
            where = self.caller()
            if where is not None:
                tracker.unrecorded = f"its output may depend on {what} ({call}() at {where})"

    def wrap(self, owner, name: str, what: str, steady=None) -> None:
        function = getattr(owner, name, None)
        if function is None:
            return
        label = f"{getattr(owner, '__name__', '')}.{name}".lstrip(".")

        def call(*args, **kwargs):
            if steady is None or not steady(args, kwargs):
                self.note(what, label)
            return function(*args, **kwargs)

        call.__name__, call.__qualname__, call.__doc__ = name, getattr(function, "__qualname__", name), function.__doc__
        setattr(owner, name, call)

    def seed(self, module, key: str) -> None:
        seed, seeded = module.seed, self.seeded

        def call(*args, **kwargs):
            seeded[key] = (args[0] if args else kwargs.get("a", kwargs.get("seed"))) is not None
            return seed(*args, **kwargs)

        module.seed = call

    def install(self) -> None:
        import datetime
        import random
        import uuid

        for name in _CLOCK:
            self.wrap(time, name, "the clock")
        self.seed(random, "random")
        for name in _RANDOM:
            self.wrap(random, name, "unseeded randomness", lambda args, kwargs: self.seeded["random"])
        self.wrap(uuid, "uuid4", "unseeded randomness")
        self.wrap(uuid, "uuid1", "the clock")
        self.wrap(os, "urandom", "unseeded randomness")
        datetime.datetime = self._dated(datetime.datetime, ("now", "utcnow", "today"))
        datetime.date = self._dated(datetime.date, ("today",))
        if "numpy.random" in sys.modules:  # imported before the snippet ran (by the pre-imported parent)
            self._numpy(sys.modules["numpy.random"])
        else:
            sys.meta_path.insert(0, _AfterImport("numpy.random", self._numpy))

    def _dated(self, cls, names):
        """A subclass of ``cls`` whose ``names`` note the clock; isinstance holds for ``cls``'s objects."""

        class Meta(type):
            def __instancecheck__(self, obj):
                return isinstance(obj, cls)

        watched = Meta(cls.__name__, (cls,), {"__module__": cls.__module__, "__qualname__": cls.__qualname__})

        def noting(name):
            def method(subclass, *args, **kwargs):
                self.note("the clock", f"datetime.{cls.__name__}.{name}")
                return getattr(super(watched, subclass), name)(*args, **kwargs)

            return classmethod(method)

        for name in names:
            setattr(watched, name, noting(name))
        return watched

    def _numpy(self, module) -> None:
        self.wrap(module, "default_rng", "unseeded randomness", lambda args, kwargs: (args[0] if args else kwargs.get("seed")) is not None)
        self.seed(module, "numpy.random")
        for name in _NUMPY_LEGACY:
            self.wrap(module, name, "unseeded randomness", lambda args, kwargs: self.seeded["numpy.random"])


class _AfterImport:
    """A meta path finder that runs ``patch(module)`` once ``name`` has been imported."""

    def __init__(self, name: str, patch) -> None:
        self.name, self.patch = name, patch

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        for finder in sys.meta_path:
            spec = finder.find_spec(name, path, target) if finder is not self and hasattr(finder, "find_spec") else None
            if spec is not None and spec.loader is not None:
                exec_module, patch = spec.loader.exec_module, self.patch

                def exec_and_patch(module, exec_module=exec_module, patch=patch):
                    exec_module(module)
                    patch(module)

                spec.loader.exec_module = exec_and_patch
                return spec
        return None


def _traceback(root: str) -> str:
    """The traceback with this bootstrap's frames dropped and paths relative to the project."""
    import traceback

    exc_type, exc, tb = sys.exc_info()
    here = os.path.realpath(__file__)
    frames = [
        f
        for f in traceback.extract_tb(tb)
        if not f.filename.startswith("<frozen") and os.path.realpath(f.filename) != here and not f.filename.endswith(os.sep + "runpy.py")
    ]
    for frame in frames:
        real = os.path.realpath(frame.filename)
        if real.startswith(root + os.sep):
            frame.filename = os.path.relpath(real, root)
    lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames)]
    lines += traceback.format_exception_only(exc_type, exc)
    return "".join(lines)


def _values(namespace: dict) -> dict:
    """The snippet's module-level numbers and arrays, each as JSON-ready data or a reason why not."""
    numpy = sys.modules.get("numpy")
    values = {}
    for name, value in namespace.items():
        if name.startswith("_"):
            continue
        try:
            encoded = _encode(value, numpy)
            if encoded is not None:
                json.dumps(encoded, allow_nan=True)
        except (ValueError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
            encoded = {"kind": "unavailable", "reason": f"it cannot be recorded ({type(exc).__name__}: {str(exc)[:120]})"}
        if encoded is not None:
            values[name] = encoded
    return values


def _complex_pairs(data):
    if isinstance(data, list):
        return [_complex_pairs(d) for d in data]
    return [data.real, data.imag]


def _encode(value, numpy):
    if isinstance(value, bool):
        return {"kind": "bool", "shape": [], "data": value}
    if isinstance(value, int):
        return {"kind": "int", "shape": [], "data": value}
    if isinstance(value, float):
        return {"kind": "float", "shape": [], "data": value}
    if isinstance(value, complex):
        return {"kind": "complex", "shape": [], "data": [value.real, value.imag]}
    if numpy is not None and isinstance(value, (numpy.ndarray, numpy.generic, list, tuple)):
        if isinstance(value, (list, tuple)) and len(value) > MAX_ARRAY_SIZE:
            return None
        try:
            array = numpy.asarray(value)
        except (ValueError, TypeError, OverflowError):
            return None
        kinds = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}
        if array.dtype.kind not in kinds:
            return None
        kind = kinds[array.dtype.kind]
        data = array.tolist() if array.size <= MAX_ARRAY_SIZE else None
        if kind == "complex" and data is not None:
            data = _complex_pairs(data)
        return {"kind": kind, "shape": list(array.shape), "data": data}
    if (
        isinstance(value, (list, tuple))
        and value
        and len(value) <= MAX_ARRAY_SIZE
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        kind = "int" if all(isinstance(v, int) for v in value) else "float"
        return {"kind": kind, "shape": [len(value)], "data": [float(v) if kind == "float" else v for v in value]}
    return None


if __name__ == "__main__":
    sys.exit(main())
