"""Hostile snippets: escaping their folder, writing what the build reads, hanging, leaving
processes behind, exiting early, closing stdout, using too much memory, values that cannot be
recorded. Every one ends in a clear file:line message, and the build goes on to report the rest."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
from snipkit import landlock_abi, processes_with

LANDLOCK = landlock_abi()
needs_landlock = pytest.mark.skipif(LANDLOCK < 1, reason="the kernel has no Landlock: only Python-level writes are refused here")

PAGE = '# P\n\n```python run="s.py"{options}\n```\n'


def _run(project, code: str, options: str = "", page: str = PAGE) -> list[str]:
    project.page("p.md", page.replace("{options}", options))
    project.snippet("s.py", code)
    return [str(p) for p in project.build().problems]


@pytest.mark.hostile
def test_a_snippet_outside_the_snippets_folder_through_a_link_is_refused(project):
    project.module("secret.py", "x = 1\n")
    os.symlink(project.root / "secret.py", project.root / "snippets" / "s.py")
    project.page("p.md", PAGE.format(options=""))
    assert project.problems() == ["docs/p.md:3: snippets/s.py failed:\n    snippet file snippets/s.py is outside the snippets folder"]


@pytest.mark.hostile
@pytest.mark.parametrize("target", ["../escaped.svg", "/tmp/snipcheck-escape-{}.svg"])
def test_a_figure_saved_outside_the_working_folder_is_refused(project, target):
    target = target.format(uuid.uuid4().hex)
    [problem] = _run(project, f"open({target!r}, 'w').write('<svg/>')\n")
    assert problem.startswith("docs/p.md:3: snippets/s.py failed:")
    assert 'File "snippets/s.py", line 1' in problem
    assert "PermissionError" in problem and "a snippet may write only inside its working folder" in problem
    assert not os.path.exists(target if target.startswith("/") else "/nonexistent")


@pytest.mark.hostile
@pytest.mark.parametrize("target", ["docs/p.md", "snippets/other.py", ".cache/snipcheck/s.py.json", "attn_like.py"])
def test_a_snippet_cannot_write_what_the_build_reads_from_python(project, target):
    project.module("attn_like.py", "x = 1\n")
    project.snippet("other.py", "y = 2\n")
    project.page("q.md", '```python run="other.py"\n```\n')
    problems = _run(project, f"import os\nopen(os.path.join({str(project.root)!r}, {target!r}), 'a').write('x = 99')\n")
    assert any(p.startswith("docs/p.md:3: snippets/s.py failed:") and "a snippet may write only inside its working folder" in p for p in problems), (
        problems
    )
    assert "x = 99" not in (project.root / target).read_text() if (project.root / target).exists() else True


@pytest.mark.hostile
@needs_landlock
@pytest.mark.parametrize(
    "command",
    ["echo 'x = 99' >> {root}/snippets/other.py", "rm {root}/docs/q.md", "truncate -s 0 {root}/docs/q.md", "mv {root}/docs/q.md {root}/docs/r.md"],
)
def test_a_program_a_snippet_starts_cannot_write_what_the_build_reads(project, command):
    project.snippet("other.py", "y = 2\n")
    project.page("q.md", '```python run="other.py"\n```\n')
    before = {p: p.read_bytes() for p in (project.root / "docs").iterdir()} | {project.root / "snippets/other.py": b"y = 2\n"}
    code = f"import subprocess\nresult = subprocess.run({command.format(root=project.root)!r}, shell=True).returncode\n"
    project.snippet("s.py", code)
    project.page("p.md", PAGE.replace("{options}", "") + "\nIt failed: {{ True = refused }}.\n")
    project.snippet("s.py", code + "refused = result != 0\n")
    assert project.problems() == []
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.hostile
@needs_landlock
def test_a_snippet_opens_no_tcp_connection(project):
    problems = _run(project, "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=2)\n")
    assert len(problems) == 1 and "PermissionError" in problems[0] and 'File "snippets/s.py", line 2' in problems[0]


@pytest.mark.hostile
@pytest.mark.skipif(LANDLOCK < 6, reason="signal scoping needs Landlock ABI 6")
def test_a_snippet_cannot_kill_its_supervisor(project):
    problems = _run(project, "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
    assert len(problems) == 1 and "PermissionError" in problems[0]


@pytest.mark.hostile
def test_a_timeout_kills_every_process_including_a_new_session(project):
    tag = f"{time.time() + 4000:.6f}"  # an argument no other process has
    code = f"import subprocess, time\nsubprocess.Popen(['sleep', '{tag}'], start_new_session=True)\ntime.sleep(60)\n"
    start = time.monotonic()
    problems = _run(project, code, " timeout=2")
    assert time.monotonic() - start < 20
    assert problems == [
        "docs/p.md:3: snippets/s.py failed:\n    timed out after 2 s (raise it with timeout=SECONDS on the run block); "
        "1 process(es) it started were stopped too"
    ]
    assert processes_with(f"sleep {tag}") == []


@pytest.mark.hostile
def test_a_process_left_holding_stdout_does_not_hold_the_build(project):
    tag = f"{time.time() + 5000:.6f}"
    code = f"import subprocess\nsubprocess.Popen(['sleep', '{tag}'], start_new_session=True)\nprint('done')\n"
    start = time.monotonic()
    problems = _run(project, code, page=PAGE + "\n```output\ndone\n```\n")
    assert problems == [] and time.monotonic() - start < 20
    assert processes_with(f"sleep {tag}") == []


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("x = 1\nimport sys\nsys.exit(0)\ny = 2\n", "the snippet called sys.exit(0) at snippets/s.py:3: a snippet must run to its end"),
        ("import sys\nsys.exit()\n", "the snippet called sys.exit(None) at snippets/s.py:2"),
        ("raise SystemExit(3)\n", "the snippet called sys.exit(3) at snippets/s.py:1"),
        ("import os\nos._exit(0)\n", "the interpreter ended (exit code 0) before the snippet finished"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "the interpreter ended (killed by signal 9) before the snippet finished"),
        ("import sys\nprint('a')\nsys.stdout.close()\n", "the snippet closed its standard output"),
        ("import os\nos.close(1)\n", "the snippet closed its standard output"),
        ("print(undefined_name)\n", "NameError: name 'undefined_name' is not defined"),
        ("import warnings\nwarnings.warn('careful')\n", "UserWarning: careful"),
    ],
)
def test_a_snippet_that_ends_badly_gets_its_own_message(project, code, message):
    problems = _run(project, code)
    assert len(problems) == 1 and problems[0].startswith("docs/p.md:3: snippets/s.py failed:") and message in problems[0], problems


@pytest.mark.hostile
def test_output_printed_only_to_stderr_is_named_in_the_drift(project):
    page = PAGE + "\n```output\nresult 1\n```\n"
    problems = _run(project, "import sys\nprint('result 1', file=sys.stderr)\n", page=page)
    assert problems == [
        "docs/p.md:7: documented result 1, computed (output ends here)\n"
        "    the snippet printed nothing to standard output; its standard error reads:\n    result 1 (snippets/s.py)"
    ]


@pytest.mark.hostile
def test_a_value_too_large_to_record_fails_only_its_tie_and_the_rest_still_reports(project):
    page = PAGE + "\nHuge {{ 1 = huge }}, fine {{ 2 = two }}, wrong {{ 4 = three }}.\n"
    problems = _run(project, "huge = 10 ** 5000\ntwo = 2\nthree = 3\n", page=page)
    assert problems[0].startswith("docs/p.md:6: 'huge' cannot be checked: it cannot be recorded (ValueError")
    assert problems[1] == "docs/p.md:6: documented 4, computed three = 3 (snippets/s.py)"
    assert len(problems) == 2


@pytest.mark.hostile
def test_a_value_that_cannot_be_recorded_and_is_not_tied_is_no_problem(project):
    assert _run(project, "huge = 10 ** 5000\nobj = object()\n") == []


@pytest.mark.hostile
def test_a_snippet_over_its_memory_cap_says_so(project):
    problems = _run(project, "block = bytearray(2 * 1024 ** 3)\n", " memory=512")
    assert len(problems) == 1 and "MemoryError" in problems[0]
    assert "the snippet ran out of memory: it may use at most 512 MiB of address space (raise it with memory=MIB on the run block)" in problems[0]


@pytest.mark.hostile
def test_a_snippet_sees_only_the_documented_environment(project, monkeypatch):
    monkeypatch.setenv("SNIPCHECK_TEST_SECRET", "leaked")
    monkeypatch.setenv("PYTHONSTARTUP", "/nonexistent")
    page = PAGE + "\n```output\nNAMES\n```\n"
    from snipcheck.run.environment import PINNED_ENV

    names = sorted(set(PINNED_ENV) | {"PATH", "HOME", "MPLCONFIGDIR", "TMPDIR", "SNIPCHECK_RUN"})
    problems = _run(
        project, "import os\nprint(' '.join(sorted(k for k in os.environ if k != 'LC_CTYPE')))\n", page=page.replace("NAMES", " ".join(names))
    )
    assert problems == []


@pytest.mark.hostile
def test_a_figure_that_is_a_link_is_refused(project):
    problems = _run(project, "import os\nos.symlink('/etc/passwd', 'leak.svg')\n", page=PAGE + "\n![A leak](figures/s/leak.svg)\n")
    assert problems == [
        "docs/p.md:3: snippets/s.py failed:\n    the snippet left leak.svg, which is not a plain file (a link or a device): "
        "figures must be files it wrote"
    ]


@pytest.mark.hostile
def test_ctrl_c_stops_the_build_and_leaves_no_process_and_no_temporary_folder(project, tmp_path):
    tag = f"{time.time() + 6000:.6f}"
    project.page("p.md", PAGE.format(options=""))
    project.snippet(
        "s.py",
        f"import subprocess, time\nsubprocess.Popen(['sleep', '{tag}'], start_new_session=True)\nopen('started', 'w').close()\ntime.sleep(60)\n",
    )
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    # PYTHONFAULTHANDLER: a check that does not end is sent SIGABRT, and prints where each of its
    # threads stands before it dies.
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONFAULTHANDLER": "1"}
    # As from a terminal: Ctrl-C raises KeyboardInterrupt. A test run started in the background of
    # a shell inherits SIGINT ignored, and Python then leaves it ignored.
    interactive = (
        "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv[0] = 'snipcheck'; runpy.run_module('snipcheck', run_name='__main__')"
    )
    check = subprocess.Popen(
        [sys.executable, "-c", interactive, "check", "--root", str(project.root)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while not processes_with(f"sleep {tag}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(f"sleep {tag}"), "the snippet never started"
    check.send_signal(signal.SIGINT)
    try:
        out, err = check.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # fails with where it hangs, and leaves nothing running for the next test
        check.send_signal(signal.SIGABRT)
        try:
            out, err = check.communicate(timeout=10)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(check.pid, signal.SIGKILL)
            if check.poll() is None:
                out, err = check.communicate()
        raise AssertionError(f"snipcheck check did not end within 30 s of Ctrl-C:\n{err.decode(errors='replace')[-8000:]}") from None
    assert check.returncode == 130, err
    assert "interrupted" in err.decode()
    assert processes_with(f"sleep {tag}") == []
    assert [p.name for p in scratch.iterdir() if p.name.startswith("snipcheck-") and "home" not in p.name] == []


@pytest.mark.hostile
@pytest.mark.parametrize("fork_server", [True, False], ids=["forked", "fresh interpreter"])
def test_a_run_that_starts_as_ctrl_c_stops_the_build_is_stopped_too(project, monkeypatch, fork_server):
    """Ctrl-C between a run's start and the moment the executor lists it (a loaded machine)."""
    from snipcheck.run import executor as executor_module

    tag = f"{time.time() + 7000:.6f}"
    project.snippet("s.py", f"import subprocess, time\nsubprocess.Popen(['sleep', '{tag}'], start_new_session=True)\ntime.sleep(60)\n")
    executor = executor_module.Executor(project.root, project.root / "snippets", project.root / ".cache")
    executor.fork_server = fork_server
    real_forked, real_popen = executor._forked, subprocess.Popen

    def stopped_as_it_starts(started):
        deadline = time.monotonic() + 30
        while not processes_with(f"sleep {tag}") and time.monotonic() < deadline:
            time.sleep(0.05)
        executor.stop()  # finds no run: this one is not listed yet
        return started

    def forked(*args):
        process = real_forked(*args)
        return process if process is None else stopped_as_it_starts(process)

    def popen(argv, *args, **kwargs):
        started = real_popen(argv, *args, **kwargs)
        return stopped_as_it_starts(started) if str(executor_module.BOOTSTRAP) in argv else started

    if fork_server:
        monkeypatch.setattr(executor, "_forked", forked)
    else:
        monkeypatch.setattr(executor_module.subprocess, "Popen", popen)
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(executor.run_one("s.py")), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "the run went on after the build was stopped"
    assert "stopped" in outcome[0].error
    assert processes_with(f"sleep {tag}") == []


def _check_in_a_process(project) -> tuple[str, float, int]:
    """``snipcheck check`` run on its own: its stderr, seconds, and the peak memory (bytes) of
    the largest process it ran (the checker or a snippet)."""
    # A fresh parent reads the peak: this process's own children include every earlier test's.
    wrapper = (
        "import resource, subprocess, sys\n"
        "subprocess.run([sys.executable, '-m', 'snipcheck', 'check', '--root', sys.argv[1]])\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, file=sys.stderr)\n"
    )
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", wrapper, str(project.root)], capture_output=True, timeout=120, text=True)
    seconds = time.monotonic() - start
    err, _, peak = done.stderr.rstrip("\n").rpartition("\n")
    return err + "\n", seconds, int(peak)


@pytest.mark.hostile
@pytest.mark.parametrize(("megabytes", "stream"), [(4, "stdout"), (50, "stdout"), (50, "stderr")])
def test_big_output_is_capped_in_bounded_time_and_memory_and_named(project, megabytes, stream):
    project.page("p.md", '```python run="s.py"\n```\n\n```output\nx = 1\n```\n')
    project.snippet("s.py", f"import sys\nfor _ in range({megabytes}):\n    sys.{stream}.write('x = ' + '9' * (1 << 20) + '\\n')\n")
    err, seconds, peak = _check_in_a_process(project)
    name = "standard output" if stream == "stdout" else "standard error"
    assert f"docs/p.md:1: snippets/s.py failed:\n    it printed {megabytes + 0.0:.1f} MiB to {name}; the checker reads at most 1 MiB" in err
    assert len(err) < 10_000, "the problem message carries the output"
    assert seconds < 60 and 10 << 20 < peak < 400 << 20, (seconds, peak)  # a peak was measured, and is bounded


@pytest.mark.hostile
def test_the_output_cap_is_the_executors(project):
    engine = project.engine()
    engine.executor.output_limit = 1000
    project.page("p.md", '```python run="s.py"\n```\n\n```output\nx\n```\n')
    project.snippet("s.py", "print('x' * 2000)\n")
    [problem] = [str(p) for p in engine.build().problems]
    assert "it printed 0.0 MiB to standard output; the checker reads at most 0.000953674 MiB of each" in problem


@pytest.mark.hostile
def test_big_output_is_capped_under_serve_too(project):
    project.page("p.md", '```python run="s.py"\n```\n\n```output\nx = 1\n```\n')
    project.snippet("s.py", "print('x = ' + '9' * (3 << 20))\n")
    [problem] = [str(p) for p in project.build(serving=True, serve_wait=60).problems]
    assert problem.startswith("docs/p.md:1: snippets/s.py failed:\n    it printed 3.0 MiB to standard output; the checker reads at most 1 MiB")


@pytest.mark.hostile
def test_a_long_drift_shows_the_start_of_each_side_and_what_was_cut(project):
    project.page("p.md", '```python run="s.py"\n```\n\n```output\nx = 1\n```\n')
    project.snippet("s.py", "print('x =', '7' * 5000)\n")
    [problem] = _run(project, "print('x =', '7' * 5000)\n", page=project.root.joinpath("docs/p.md").read_text())
    assert problem == f"docs/p.md:5: documented 1, computed {'7' * 200}… (cut: 4800 more characters) (snippets/s.py)"


@pytest.mark.hostile
def test_a_long_nondeterministic_output_is_cut_in_the_message(project):
    project.page("p.md", '```python run="s.py"\n```\n\n```output\nx\n```\n')
    project.snippet("s.py", "import os\nprint(os.urandom(3000).hex())\n")
    [problem] = project.problems(check_determinism=True)
    assert "nondeterministic: two runs of the same source gave different stdout" in problem
    assert problem.count("… (cut: 5001 more characters)") == 2 and len(problem) < 3000


# -- the build's secrets and the machine ------------------------------------------------------------

namespaces = pytest.mark.skipif(os.geteuid() != 0, reason="new network and PID namespaces need root (or CAP_SYS_ADMIN)")
TIED = '# P\n\n```python run="s.py"\n```\n\nIt is {{ %s = %s }}.\n'


def _tied(project, code: str, name: str, documented: str = "False") -> list[str]:
    project.page("p.md", TIED % (documented, name))
    project.snippet("s.py", code)
    return project.problems()


@pytest.mark.hostile
@namespaces
def test_no_snippet_reads_the_builds_environment_through_proc(project, monkeypatch):
    monkeypatch.setenv("SNIPCHECK_TEST_TOKEN", "ci-secret")
    code = (
        "import os\nfound = False\nfor entry in os.listdir('/proc'):\n    try:\n"
        "        found |= b'ci-secret' in open(f'/proc/{entry}/environ', 'rb').read()\n    except OSError:\n        pass\n"
    )
    assert _tied(project, code, "found") == []
    assert _tied(project, f"import os\nseen = os.path.exists('/proc/{os.getpid()}/environ')\n", "seen") == []


@pytest.mark.hostile
@namespaces
def test_proc_shows_only_the_snippets_own_tree(project):
    code = (
        "import os, subprocess\nchild = subprocess.Popen(['sleep', '30'])\n"
        "pids = sorted(int(e) for e in os.listdir('/proc') if e.isdigit())\nchild.kill()\nchild.wait()\n"
        "count = len(pids)\n"
    )
    assert _tied(project, code, "count", "3") == []  # its namespace's init, the snippet and its child


@pytest.mark.hostile
@namespaces
@pytest.mark.parametrize("host", ["127.0.0.1", "10.255.255.1"])
def test_a_snippet_sends_nothing_over_udp(project, host):
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        code = (
            f"import socket\nrefused = False\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ntry:\n"
            f"    s.sendto(b'ci-secret', ({host!r}, {port}))\nexcept OSError:\n    refused = True\ns.close()\n"
        )
        assert _tied(project, code, "refused", "True") == []
        with pytest.raises(TimeoutError):
            listener.recv(100)


@pytest.mark.hostile
@pytest.mark.parametrize("kind", ["SOCK_DGRAM", "SOCK_STREAM"])
def test_a_snippet_reaches_no_unix_socket_outside_its_folders(project, tmp_path, kind):
    import socket

    path = str(tmp_path / "outside.sock")
    with socket.socket(socket.AF_UNIX, getattr(socket, kind)) as listener:
        listener.bind(path)
        if kind == "SOCK_STREAM":
            listener.listen(1)
        listener.settimeout(0.5)
        call = "s.sendto(b'ci-secret', PATH)" if kind == "SOCK_DGRAM" else "s.connect(PATH)"
        code = f"import socket\nPATH = {path!r}\ns = socket.socket(socket.AF_UNIX, socket.{kind})\n{call.replace('PATH', repr(path))}\n"
        [problem] = _run(project, code)
        assert "PermissionError" in problem and f"a snippet may reach no Unix socket outside its folders; not {path!r}" in problem
        with pytest.raises(TimeoutError):
            listener.accept() if kind == "SOCK_STREAM" else listener.recv(100)


@pytest.mark.hostile
@pytest.mark.parametrize("where", ["os.environ['HOME']", "os.environ['MPLCONFIGDIR']", "'/dev/shm'"])
def test_what_one_run_leaves_in_home_cache_or_shm_no_other_run_sees(project, where):
    if where == "'/dev/shm'" and os.geteuid() != 0:
        pytest.skip("a private /dev/shm needs a mount namespace (root)")
    tag = uuid.uuid4().hex
    project.snippet("s.py", f"import os\nopen(os.path.join({where}, 'left-{tag}'), 'w').write('poison')\nleft = True\n")
    project.page("p.md", TIED % ("True", "left"))
    assert project.problems() == []  # the first build leaves its file
    assert _tied(project, f"import os\nleft = os.path.exists(os.path.join({where}, 'left-{tag}'))\n", "left") == []
    assert not os.path.exists(f"/dev/shm/left-{tag}")


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("forged", "message"),
    [
        ("b'{not json'", "its result record is malformed (not a JSON object): the snippet wrote to it"),
        ("b'[1, 2]'", "its result record is malformed (not a JSON object)"),
        ("json.dumps({'error': None, 'values': {}, 'reads': 'none', 'listed': {}}).encode()", "malformed (it has no reads)"),
        ("json.dumps({'error': 3, 'values': {}, 'reads': {}, 'listed': {}}).encode()", "malformed (its error is not text)"),
        (
            "json.dumps({'error': None, 'values': {'x': {'kind': 'int', 'shape': [2], 'data': [1]}}, 'reads': {}, 'listed': {}}).encode()",
            "malformed (its value 'x' is not a recorded value)",
        ),
        (
            "json.dumps({'error': None, 'values': {}, 'reads': {'a.py': {'sha256': 'x', 'stat': 1}}, 'listed': {}}).encode()",
            "malformed (its read of 'a.py' is not a recorded read)",
        ),
        (
            "json.dumps({'error': None, 'values': {}, 'reads': {}, 'listed': {'d/': None}}).encode()",
            "malformed (its listing of 'd/' is not a recorded listing)",
        ),
    ],
)
def test_a_forged_result_record_fails_loudly_and_never_crashes_the_checker(project, forged, message):
    code = (
        "import json, os\nfor fd in os.listdir('/proc/self/fd'):\n    try:\n"
        "        target = os.readlink(f'/proc/self/fd/{fd}')\n    except OSError:\n        continue\n"
        f"    if target.endswith('result.json'):\n        os.write(int(fd), {forged})\nos._exit(0)\n"
    )
    [problem] = _run(project, code)
    assert problem.startswith("docs/p.md:3: snippets/s.py failed:") and message in problem, problem


@pytest.mark.hostile
def test_a_snippet_that_scribbles_on_its_record_and_ends_normally_has_its_own_values_checked(project):
    code = (
        "import os\nfor fd in os.listdir('/proc/self/fd'):\n    try:\n        target = os.readlink(f'/proc/self/fd/{fd}')\n"
        "    except OSError:\n        continue\n    if target.endswith('result.json'):\n"
        '        os.write(int(fd), b\'{"error": null, "values": {"x": {"kind": "int", "shape": [], "data": 1}}}\')\n'
        "x = 2\n"
    )
    assert _tied(project, code, "x", "1") == ["docs/p.md:6: documented 1, computed x = 2 (snippets/s.py)"]


@pytest.mark.hostile
def test_a_sandbox_without_namespaces_says_what_is_not_enforced(project, monkeypatch, capsys):
    from snipcheck.cli import main
    from snipcheck.run.executor import Executor

    original = Executor.__init__

    def without(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.namespaces = False

    monkeypatch.setattr(Executor, "__init__", without)
    project.page("p.md", TIED % ("1", "x"))
    project.snippet("s.py", "x = 1\n")
    assert main(["check", "--root", str(project.root)]) == 0
    assert "snipcheck: warning: " in (err := capsys.readouterr().err)
    assert "not enforced: network and PID namespaces (turned off)" in err
