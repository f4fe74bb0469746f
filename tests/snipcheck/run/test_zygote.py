"""Runs forked from the pre-imported parent: what the snippet sees is what a fresh interpreter
shows it, its project reads are recorded, nothing one run changes reaches the next, a snippet
cannot reach the parent or outlive its run through it, and a parent that cannot start or dies
leaves every run to a fresh interpreter, said once. The parent dies with the build."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from snipkit import processes_with

from snipcheck.run import zygote
from snipcheck.run.executor import Executor
from snipcheck.run.result import Request


def _executor(project, *, fork: bool = True, namespaces: bool = True) -> Executor:
    executor = Executor(project.root, project.root / "snippets", project.root / ".cache/snipcheck")
    executor.fork_server, executor.namespaces = fork, namespaces
    return executor


def _marked(needle: bytes) -> list[int]:
    """Processes whose environment at their start holds ``needle``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if entry.isdigit() and needle in handle.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def _left_behind(server: zygote.Server) -> list[int]:
    """The processes forked from ``server`` (that have run no program since) but itself."""
    return [pid for pid in _marked(f"SNIPCHECK_RUN={server.marker}\0".encode()) if pid != server.pid]


# What a snippet can see of its interpreter; each is printed as JSON, the run's own folder as <run>.
SEEN = {
    "environment": "sorted((k, v) for k, v in os.environ.items() if k != 'SNIPCHECK_RUN')",
    "working folder": "os.getcwd()",
    "sys.path": "sys.path",
    "sys.flags": "list(sys.flags)",
    "warning options": "sys.warnoptions",
    "argv": "[sys.argv, sys.orig_argv[:3]]",
    "hash seed": "hash('snipcheck')",
    "temporary folder": "tempfile.gettempdir()",
    "open file descriptors": "sorted(os.listdir('/proc/self/fd'))",
    "threads": "[threading.active_count(), len(os.listdir('/proc/self/task'))]",
    "signal handlers": "[str(signal.getsignal(s)) for s in sorted(signal.valid_signals()) if s not in (signal.SIGKILL, signal.SIGSTOP)]",
    "limits": "[resource.getrlimit(r) for r in (resource.RLIMIT_AS, resource.RLIMIT_FSIZE, resource.RLIMIT_CORE, resource.RLIMIT_NOFILE)]",
    "session": "[os.getsid(0) == os.getpgid(0), sys.stdin.read()]",
    "standard streams": "[(s.encoding, s.errors, s.line_buffering) for s in (sys.stdout, sys.stderr)]",
    "matplotlib folders": "[matplotlib.get_configdir(), matplotlib.get_cachedir(), str(matplotlib.texmanager.TexManager._cache_dir)]",
    "matplotlib styles": "[matplotlib.style.USER_LIBRARY_PATHS, sorted(matplotlib.style.available)]",
    "matplotlib settings": "sorted((k, repr(v)) for k, v in matplotlib.rcParams.items())",
    "matplotlib file": "matplotlib.matplotlib_fname()",
    "numpy print options": "sorted((k, repr(v)) for k, v in np.get_printoptions().items())",
    "project modules held": "[n for n, m in sys.modules.items() if str(getattr(m, '__file__', '')).startswith(ROOT)]",
}
PRELUDE = (
    "import json, os, resource, signal, sys, tempfile, threading\n"
    "import numpy as np, matplotlib, matplotlib.pyplot, matplotlib.style, matplotlib.texmanager\n"
    "ROOT = {root!r}\nRUN = os.path.dirname(os.environ['HOME'])\n"
)


@pytest.mark.parametrize("what", sorted(SEEN))
def test_a_forked_run_sees_what_a_fresh_interpreter_shows_it(project, what):
    project.snippet("s.py", PRELUDE.format(root=str(project.root)) + f"print(json.dumps({SEEN[what]}).replace(RUN, '<run>'))\n")
    fresh, forked = (_executor(project, fork=fork).run_one("s.py") for fork in (False, True))
    assert fresh.error is None, fresh.error
    assert (forked.error, forked.stdout, forked.unrecorded) == (None, fresh.stdout, fresh.unrecorded)
    assert "<run>" in fresh.stdout or what not in ("environment", "working folder", "temporary folder", "matplotlib folders")


@pytest.mark.hostile
@pytest.mark.parametrize("code", ["import numpy as np\nv = np.random.rand()\n", "from numpy.random import randn\nv = randn()\n"])
def test_unseeded_randomness_is_noted_in_a_forked_run(project, code):
    project.snippet("s.py", code)
    fresh, forked, again = (_executor(project, fork=fork).run_one("s.py") for fork in (False, True, True))
    assert fresh.unrecorded == forked.unrecorded == again.unrecorded and "unseeded randomness" in forked.unrecorded
    assert len({str(r.values["v"]) for r in (fresh, forked, again)}) == 3  # each process draws from a generator of its own


def test_a_run_is_forked_when_it_can_be(project):
    project.snippet("s.py", "import sys\nheld = 'matplotlib.pyplot' in sys.modules\n")
    executor = _executor(project)
    assert executor.run_one("s.py").values["held"]["data"] is True
    assert executor.take_fork_note() is None
    assert _executor(project, fork=False).run_one("s.py").values["held"]["data"] is False


def test_a_live_run_starts_from_a_fresh_interpreter(project):
    """A measurement never waits for the parent's imports: in a build that reuses every other
    result it is the first run, and the parent is not up yet."""
    project.snippet("s.py", "import sys\nheld = 'matplotlib.pyplot' in sys.modules\n")
    executor = _executor(project)
    assert executor.run_one("s.py", Request(live=True)).values["held"]["data"] is False
    assert executor.run_one("s.py").values["held"]["data"] is True


@pytest.mark.hostile
@pytest.mark.parametrize("fork", [False, True])
def test_project_reads_are_recorded_through_the_parent_too(project, fork):
    project.module("attn/__init__.py", "from .core import scale\n")
    project.module("attn/core.py", "def scale(x):\n    return 2 * x\n")
    project.module("data/table.txt", "21\n")
    project.snippet("s.py", f"import attn\nvalue = attn.scale(int(open({str(project.root / 'data/table.txt')!r}).read()))\n")
    result = _executor(project, fork=fork).run_one("s.py")
    assert result.error is None and result.values["value"]["data"] == 42
    assert sorted(result.imported) == ["attn/__init__.py", "attn/core.py", "data/table.txt", "snippets/s.py"]


# A run changes what the next would see if it were not a fresh process: each change, and what
# the next run prints instead.
CHANGES = [
    ("import matplotlib\nmatplotlib.rcParams['font.size'] = 30\n", "import matplotlib\nprint(matplotlib.rcParams['font.size'])\n", "11.0"),
    ("import numpy as np\nnp.set_printoptions(precision=2)\n", "import numpy as np\nprint(np.array([1 / 3]))\n", "[0.33333333]"),
    ("import matplotlib.pyplot as plt\nplt.figure()\n", "import matplotlib.pyplot as plt\nprint(plt.get_fignums())\n", "[]"),
    ("import numpy as np\nnp.random.seed(1)\n", "import numpy as np\nprint(np.random.get_state()[1][0] != 1791095845)\n", "True"),
    ("import os\nos.environ['LEAK'] = '1'\n", "import os\nprint(os.environ.get('LEAK'))\n", "None"),
    ("import sys\nsys.modules['leak'] = sys\n", "import sys\nprint('leak' in sys.modules)\n", "False"),
    ("import numpy\nnumpy.pi = 3\n", "import numpy\nprint(numpy.pi > 3)\n", "True"),
    (
        "import warnings\nwarnings.simplefilter('ignore')\n",
        "import warnings\nprint(('ignore', None, Warning, None, 0) in warnings.filters)\n",
        "False",
    ),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("change", "after", "printed"), CHANGES)
def test_nothing_a_run_changes_reaches_the_next(project, change, after, printed):
    project.snippet("a.py", change)
    project.snippet("b.py", after)
    executor = _executor(project)
    assert executor.run_one("a.py").error is None
    result = executor.run_one("b.py")
    assert (result.error, result.stdout) == (None, printed + "\n")
    assert executor.take_fork_note() is None


REACH = {
    "its file descriptors": "found = [fd for fd in range(3, 1024) if _is_socket(fd)]\n",
    "the parent's socket": "found = _sockets_of(PARENT)\n",
    "the parent by a signal": "found = _signal(PARENT)\n",
}
HELPERS = """
import ctypes, os, signal, stat
def _is_socket(fd):
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False
def _sockets_of(pid):
    taken = []
    try:
        names = os.listdir(f'/proc/{pid}/fd')
        pidfd = os.pidfd_open(pid)
    except OSError:
        return taken
    syscall = ctypes.CDLL(None, use_errno=True).syscall
    for name in names:
        try:
            if not os.readlink(f'/proc/{pid}/fd/{name}').startswith('socket:'):
                continue
        except OSError:
            continue
        try:
            taken.append(os.open(f'/proc/{pid}/fd/{name}', os.O_RDWR))
        except OSError:
            pass
        if syscall(438, pidfd, int(name), 0) >= 0:  # pidfd_getfd
            taken.append(name)
    return taken
def _signal(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        return []
    return [pid]
"""


@pytest.mark.hostile
@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "no namespaces"])
@pytest.mark.parametrize("reach", sorted(REACH))
def test_a_snippet_cannot_reach_the_parent(project, reach, namespaces):
    server = zygote.shared()
    project.snippet("s.py", HELPERS + f"PARENT = {server.pid}\n" + REACH[reach])
    executor = _executor(project, namespaces=namespaces)
    result = executor.run_one("s.py")
    assert result.error is None and result.values["found"]["data"] == [], result.error
    assert zygote.shared() is server and server.problem is None
    project.snippet("t.py", "x = 1\n")
    assert executor.run_one("t.py").values == {"x": {"kind": "int", "shape": [], "data": 1}}
    assert _left_behind(server) == []


@pytest.mark.hostile
@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "no namespaces"])
def test_a_snippet_that_forks_a_lot_leaves_nothing_behind(project, namespaces):
    project.snippet(
        "s.py",
        "import os, time\nfor _ in range(60):\n    if os.fork() == 0:\n"
        "        os.setsid()\n        os.fork()\n        time.sleep(600)\n        os._exit(0)\nx = 1\n",
    )
    executor = _executor(project, namespaces=namespaces)
    assert executor.run_one("s.py").error is None
    assert _left_behind(zygote.shared()) == []


@pytest.mark.hostile
def test_what_a_killed_supervisor_left_is_killed_by_the_parent(tmp_path):
    """The parent is a subreaper: a run whose supervisor dies at once leaves it its processes."""
    tag = f"{time.time() + 7000:.6f}"
    script = tmp_path / "die.py"
    script.write_text(f"import os, signal, subprocess\nsubprocess.Popen(['sleep', '{tag}'])\nos.kill(os.getpid(), signal.SIGKILL)\n")
    server = zygote.shared()
    with open(tmp_path / "out", "wb") as out:
        run = server.spawn([sys.executable, "-W", "error", str(script), "-"], tmp_path, dict(os.environ), out.fileno(), out.fileno())
    assert isinstance(run, zygote.ForkedRun), run
    run.wait(timeout=20)
    assert not run.lost and processes_with(f"sleep {tag}") == []


@pytest.mark.parametrize(
    ("argv", "why"),
    [(["python3", "-W", "error"], "another interpreter or other flags"), ([sys.executable], "another interpreter or other flags")],
)
def test_the_parent_refuses_a_run_of_another_interpreter(tmp_path, argv, why):
    with open(tmp_path / "out", "wb") as out:
        answer = zygote.shared().spawn([*argv, "s.py", "c.json"], tmp_path, {}, out.fileno(), out.fileno())
    assert isinstance(answer, str) and why in answer


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("rel", "why"),
    [
        ("cycler.py", "could stand in for the module cycler"),
        ("snippets/numpy", "could stand in for the module numpy"),
        ("kiwisolver.cpython-311-x86_64-linux-gnu.so", "could stand in for the module kiwisolver"),
    ],
)
def test_a_project_file_that_could_stand_in_for_a_held_module_runs_fresh(project, rel, why):
    (project.root / rel).parent.mkdir(parents=True, exist_ok=True)
    (project.root / rel).mkdir() if "." not in Path(rel).name else (project.root / rel).write_text("")
    project.snippet("s.py", "import sys\nheld = 'matplotlib' in sys.modules\n")
    executor = _executor(project)
    assert executor.run_one("s.py").values["held"]["data"] is False
    assert why in executor.take_fork_note() and executor.take_fork_note() is None


def test_a_parent_that_holds_a_project_module_is_not_used(project):
    server = zygote.shared()
    held = zygote.Server.__new__(zygote.Server)
    held.__dict__.update(server.__dict__, files=[*server.files, str(project.root / "attn/__init__.py")], held={})
    assert "holds a module from the project (attn/__init__.py)" in zygote.unusable(held, project.root, ())
    assert zygote.unusable(server, project.root, ()) is None


@pytest.fixture
def fresh_server(monkeypatch):
    """A server of its own for the test (the shared one is left as it was)."""
    monkeypatch.setattr(zygote, "_shared", None)
    yield
    server = zygote._shared
    if server is not None:
        server.close()


@pytest.mark.hostile
@pytest.mark.usefixtures("fresh_server")
@pytest.mark.parametrize(
    ("server", "why"),
    [
        ("import sys\nsys.exit(3)\n", "it ended (exit code 3)"),
        ("raise SystemExit('no numpy here')\n", "it ended (exit code 1): no numpy here"),
        ('import socket, sys, json\nsocket.send_fds(socket.socket(fileno=int(sys.argv[1])), [b\'{"failed": "x"}\'], [])\n', "could not be imported"),
    ],
)
def test_a_parent_that_does_not_start_leaves_the_runs_to_fresh_interpreters(project, tmp_path, monkeypatch, capsys, server, why):
    from snipcheck.cli import main

    script = tmp_path / "server.py"
    script.write_text(server)
    monkeypatch.setattr(zygote, "SERVER", script)
    project.page("p.md", '```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 1\n")
    assert main(["check", "--root", str(project.root)]) == 0
    err = capsys.readouterr().err
    assert err.count("snippets start from a fresh interpreter, not from the pre-imported parent") == 1, err
    assert why in err


@pytest.mark.hostile
@pytest.mark.usefixtures("fresh_server")
def test_a_parent_that_dies_under_a_run_leaves_it_to_a_fresh_interpreter(project):
    project.snippet("s.py", "import time\ntime.sleep(2)\nx = 1\n")
    executor = _executor(project)
    server = zygote.shared()
    killer = threading.Timer(1.0, os.kill, (server.pid, signal.SIGKILL))
    killer.start()
    result = executor.run_one("s.py")
    killer.join()
    assert (result.error, result.values) == (None, {"x": {"kind": "int", "shape": [], "data": 1}})
    assert "it ended (exit code -9)" in executor.take_fork_note()
    assert executor.run_one("s.py").error is None and executor.take_fork_note() is None
    assert not os.path.exists(f"/proc/{server.pid}") and _left_behind(server) == []


DIES = """
import os, signal, sys
from pathlib import Path
from snipcheck.run import zygote
from snipcheck.run.executor import Executor
from snipcheck.run.result import Request
root = Path(sys.argv[1])
executor = Executor(root, root / "snippets", root / ".cache")
print(zygote.shared().pid, flush=True)
executor.run_one("s.py")
"""


@pytest.mark.hostile
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_parent_and_its_runs_die_with_the_build(project, how):
    tag = f"{time.time() + 8000:.6f}"
    project.snippet("s.py", f"import subprocess, time\nsubprocess.Popen(['sleep', '{tag}'], start_new_session=True)\ntime.sleep(60)\n")
    build = subprocess.Popen([sys.executable, "-c", textwrap.dedent(DIES), str(project.root)], stdout=subprocess.PIPE, text=True)
    parent = int(build.stdout.readline())
    deadline = time.monotonic() + 30
    while not processes_with(f"sleep {tag}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(f"sleep {tag}"), "the snippet never started"
    build.send_signal(how)
    build.wait(timeout=30)
    deadline = time.monotonic() + 15
    while (os.path.exists(f"/proc/{parent}") or processes_with(f"sleep {tag}")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marked(f"SNIPCHECK_RUN=zygote-{build.pid}-".encode()) == [] and processes_with(f"sleep {tag}") == []
    build.stdout.close()


def test_the_parent_imports_nothing_of_snipcheck_or_the_project():
    server = zygote.shared()
    package = Path(zygote.__file__).resolve().parents[1]
    assert [f for f in server.files if Path(f).resolve().is_relative_to(package)] == [str(zygote.SERVER)]
    assert {"numpy", "matplotlib"} <= set(server.names) and not {"attn", "snipcheck", "torch"} & set(server.names)
