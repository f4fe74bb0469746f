"""mypy, pinned in requirements.lock and configured in pyproject.toml ([tool.mypy]), type-checks attn.

attn ships attn/py.typed (PEP 561), so the checker of a project that uses attn reads its types.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_is_the_pinned_version():
    """Another mypy may find other errors: the one installed is the one the lock file names."""
    pinned = re.search(r"^mypy==([^\s\\]+)", (ROOT / "requirements.lock").read_text(), flags=re.MULTILINE)
    assert pinned, "requirements.lock pins no mypy"
    installed = subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True, text=True, check=True)
    assert installed.stdout.split()[:2] == ["mypy", pinned[1]]


def test_attn_type_checks(tmp_path):
    command = [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, "mypy (fix: python -m mypy, configured in pyproject.toml)\n" + (
        result.stdout + result.stderr
    )
