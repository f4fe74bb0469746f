"""The command line against hostile input: the wrong folder fails instead of reporting
"0 snippets run", and every Markdown suffix MkDocs reads is checked."""

from __future__ import annotations

import pytest

from snipcheck.cli import main


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda root: None, "there is no docs folder at"),
        (lambda root: (root / "docs").mkdir(), "no Markdown page in"),
        (lambda root: ((root / "docs").mkdir(), (root / "docs" / "notes.txt").write_text("{{ 1 = x }}")), "no Markdown page in"),
    ],
)
@pytest.mark.parametrize("command", ["check", "accept"])
def test_the_wrong_folder_fails_with_a_message(tmp_path, capsys, setup, message, command):
    setup(tmp_path)
    assert main([command, "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "0 snippets run" not in err


@pytest.mark.hostile
@pytest.mark.parametrize("suffix", [".markdown", ".mdown", ".mkd", ".MD"])
def test_pages_with_every_markdown_suffix_mkdocs_reads_are_checked(project, capsys, suffix):
    project.page(f"p{suffix}", '```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 2\n")
    assert main(["check", "--root", str(project.root)]) == 1
    assert f"docs/p{suffix}:4: documented 1, computed x = 2 (snippets/s.py)" in capsys.readouterr().err


def _check_with_a_sleeping_snippet(project, tmp_path):
    """``snipcheck check`` in its own process, once its snippet (which started a child in a new
    session) is asleep; returns the process, the child's tag and the scratch folder."""
    import os
    import subprocess
    import sys
    import time

    from snipkit import processes_with

    tag = f"{time.time() + 7000:.6f}"
    project.page("p.md", '```python run="s.py"\n```\n')
    project.snippet("s.py", f"import subprocess, time\nsubprocess.Popen(['sleep', '{tag}'], start_new_session=True)\ntime.sleep(60)\n")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    check = subprocess.Popen(
        [sys.executable, "-m", "snipcheck", "check", "--root", str(project.root)],
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while not processes_with(f"sleep {tag}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(f"sleep {tag}"), "the snippet never started"
    return check, tag, scratch


@pytest.mark.hostile
@pytest.mark.parametrize(("signum", "name"), [(15, "SIGTERM"), (1, "SIGHUP")])
def test_a_terminated_check_stops_every_process_it_started_and_says_so(project, tmp_path, signum, name):
    from snipkit import processes_with

    check, tag, scratch = _check_with_a_sleeping_snippet(project, tmp_path)
    check.send_signal(signum)
    _, err = check.communicate(timeout=30)
    assert check.returncode == 128 + signum, err
    assert f"snipcheck: stopped by {name}; every snippet and every process it started was stopped" in err.decode()
    assert processes_with(f"sleep {tag}") == []
    assert [p.name for p in scratch.iterdir() if p.name.startswith("snipcheck-") and "home" not in p.name] == []


@pytest.mark.hostile
def test_a_killed_check_leaves_no_snippet_running(project, tmp_path):
    import time

    from snipkit import processes_with

    check, tag, _ = _check_with_a_sleeping_snippet(project, tmp_path)
    check.kill()
    check.communicate(timeout=30)
    deadline = time.monotonic() + 20  # the supervisor notices its parent died and stops the snippet's tree
    while processes_with(f"sleep {tag}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(f"sleep {tag}") == []
