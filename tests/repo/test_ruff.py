"""ruff, pinned in requirements.lock and configured in pyproject.toml, lints and format-checks every
Python file of the repository.

Scope: the repository root, as ruff's own file discovery finds it (what .gitignore ignores is left
out: the virtual environment, the built sites, the caches). snipcheck/ruff.toml and
tests/snipcheck/ruff.toml extend the root configuration with snipcheck's line length; no other
folder has settings of its own.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def ruff(*args):
    """Run the installed ruff over the whole repository from its root -> CompletedProcess."""
    command = [sys.executable, "-m", "ruff", *args, "--no-cache", "."]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_is_the_pinned_version():
    """Another ruff may format differently: the one installed is the one the lock file names."""
    pinned = re.search(r"^ruff==([^\s\\]+)", (ROOT / "requirements.lock").read_text(), flags=re.MULTILINE)
    assert pinned, "requirements.lock pins no ruff"
    installed = subprocess.run([sys.executable, "-m", "ruff", "--version"], capture_output=True, text=True, check=True)
    assert installed.stdout.split() == ["ruff", pinned[1]]


def test_ruff_sees_every_python_file():
    """ruff's discovery from the root reaches every Python file git tracks or would track: no
    folder is left out of the lint by an exclude."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of the repository's files to compare with")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    in_git = {name for name in listed.stdout.split("\0") if name and (ROOT / name).is_file()}
    shown = ruff("check", "--show-files")
    assert shown.returncode == 0, shown.stderr
    seen = {Path(line).resolve().relative_to(ROOT).as_posix() for line in shown.stdout.splitlines() if line.strip()}
    assert len(in_git) > 300, f"only {len(in_git)} Python files in the repository: the listing is wrong"
    assert sorted(in_git - seen) == [], "Python files ruff does not check"


@pytest.mark.parametrize("args", [("check",), ("format", "--check", "--diff")], ids=["check", "format"])
def test_ruff(args):
    result = ruff(*args)
    fix = "ruff format ." if args[0] == "format" else "ruff check --fix ."
    assert result.returncode == 0, f"ruff {' '.join(args)} . (fix: {fix})\n" + result.stdout + result.stderr
