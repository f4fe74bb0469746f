"""The Python interpreters the tests run things in, found on this machine (never installed here)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess


def find_python(version: str) -> str | None:
    """An interpreter for ``version``: on PATH, or installed by pyenv (as on the project's machines)."""
    candidates = [shutil.which(f"python{version}")]
    candidates += sorted(
        glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python{version}")), reverse=True
    )
    for candidate in filter(None, candidates):
        probe = subprocess.run(
            [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
        )
        if probe.returncode == 0 and probe.stdout.strip() == version:
            return candidate
    return None
