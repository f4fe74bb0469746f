"""A reader's fresh Python, for the notebook gate (test_notebooks.py): a virtual environment outside
the repository with Jupyter's kernel and nothing of the project, every later install pinned."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from pythons import find_python
from sitekit import ROOT

READER_PYTHON = "3.12"  # newer than the project's 3.11: what a reader may well have
TORCH_PYTHON = "3.11"  # the Python of the pinned CPU build of PyTorch (test_notebooks.py says why)
KERNEL = ["ipykernel"]  # all a fresh environment gets before the notebook's own set-up cell runs


def pins(project: Path = ROOT) -> str:
    """requirements.lock's pins without their hashes, and the pinned torch, as a constraints file's
    text. With the hashes pip would demand one for everything it installs, and the notebooks install
    attn from the site's own wheel."""
    lock = (project / "requirements.lock").read_text(encoding="utf-8")
    found = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*==[^\s\\]+)", lock, flags=re.MULTILINE)
    assert len(found) > 50, "requirements.lock pins too few packages"
    torch = (project / "toolchain" / "requirements-torch.txt").read_text(encoding="utf-8")
    found += re.findall(r"^(torch==\S+)", torch, flags=re.MULTILINE)
    assert any(pin.startswith("torch==") for pin in found), "toolchain/requirements-torch.txt pins no torch"
    return "\n".join(found) + "\n"


def reader_env(constraints: Path) -> dict[str, str]:
    """This environment without anything that points into the project, every install pinned by
    ``constraints``.

    pip compiles no module to bytecode as it installs (PIP_COMPILE=0): Python compiles each module
    the first time it is imported, and most of the modules installed here (numpy's own tests among
    them) no notebook imports."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_CONSTRAINT", "PIP_COMPILE", "PIP_NO_COMPILE"))
    }
    env["PIP_CONSTRAINT"] = str(constraints)
    env["PIP_COMPILE"] = "0"
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(str(ROOT)))
    return env


def fresh_environment(version: str, where: Path, constraints: Path) -> Path:
    """A fresh virtual environment of Python ``version`` under ``where``, outside the repository,
    with Jupyter's kernel and nothing of the project: neither attn nor numpy imports there. Its
    interpreter."""
    python = find_python(version)
    assert python, f"Python {version} is not installed: install it (pyenv install {version})"
    venv = where / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_python = venv / "bin" / "python"
    pip = subprocess.run(
        [str(bin_python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *KERNEL],
        env=reader_env(constraints),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    probe = subprocess.run(
        [str(bin_python), "-c", "import importlib.util as u; print([m for m in ('attn', 'numpy') if u.find_spec(m)])"],
        cwd=venv,
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.strip() == "[]", f"the fresh environment already has {probe.stdout.strip()}"
    return bin_python
