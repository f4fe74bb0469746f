"""ruff, pinned in requirements.lock and configured in pyproject.toml, lints and format-checks the code.

Scope: attn/, bench/, the claims-ledger reader and the tests outside tests/snipcheck/ and
tests/gates/ (tests/attn/, tests/bench/, tests/hooks/, tests/repo/, tests/pages/, tests/toolchain/).
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ["tests/attn", "tests/bench", "tests/hooks", "tests/repo", "tests/pages", "tests/toolchain"]
SCOPE = ["attn", "bench", "toolchain/claims_ledger.py", *TESTS]


def ruff(*args):
    """Run the installed ruff on SCOPE from the repository root -> CompletedProcess."""
    command = [sys.executable, "-m", "ruff", *args, "--no-cache", *SCOPE]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_is_the_pinned_version():
    """Another ruff may format differently: the one installed is the one the lock file names."""
    pinned = re.search(r"^ruff==([^\s\\]+)", (ROOT / "requirements.lock").read_text(), flags=re.MULTILINE)
    assert pinned, "requirements.lock pins no ruff"
    installed = subprocess.run([sys.executable, "-m", "ruff", "--version"], capture_output=True, text=True, check=True)
    assert installed.stdout.split() == ["ruff", pinned[1]]


@pytest.mark.parametrize("args", [("check",), ("format", "--check", "--diff")], ids=["check", "format"])
def test_ruff(args):
    result = ruff(*args)
    assert result.returncode == 0, f"ruff {' '.join(args)} (fix: ruff {args[0]} {' '.join(SCOPE[:2])} ...)\n" + (
        result.stdout + result.stderr
    )
