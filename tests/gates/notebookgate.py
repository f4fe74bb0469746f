"""Running the notebooks the site offers as a reader runs them (test_notebooks.py says how and why):
each one, as downloaded, in a fresh kernel of a fresh Python outside the repository, its printed
output compared with the output it ships. ``run_downloaded`` is the whole run, which the session
starts as soon as the site is built (pipeline.py); ``execute`` runs one notebook.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from readerenv import READER_PYTHON, TORCH_PYTHON, reader_env
from sitekit import TEST_SITE_URL

from snipcheck.numeric import compare_output

RUNNER = Path(__file__).with_name("notebookrun.py")
KERNELS = min(2, os.cpu_count() or 1)  # notebooks running at once, across both Pythons


def _stdout(outputs: list[dict]) -> str:
    return "".join(
        "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
        for o in outputs
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )


def execute(path: Path, workdir: Path, python: str = sys.executable, env: dict[str, str] | None = None) -> list[str]:
    """Run the notebook at ``path`` in a fresh kernel of ``python``, in ``workdir`` (the kernel's
    environment: ``env``, else this one's); the problems found, one per entry."""
    workdir.mkdir(parents=True, exist_ok=True)
    executed = workdir / path.name
    run = subprocess.run(
        [sys.executable, "-W", "ignore", str(RUNNER), str(path), str(executed), "--python", python],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
    )
    if run.returncode != 0:
        tail = "\n".join(line for line in run.stderr.splitlines() if "[IPKernelApp]" not in line)[-3000:]
        return [f"{path.name}: a cell raised (exit {run.returncode}):\n{tail}"]
    shipped = json.loads(path.read_text(encoding="utf-8"))
    ran = json.loads(executed.read_text(encoding="utf-8"))
    problems = []
    for before, after in zip(shipped["cells"], ran["cells"], strict=True):
        if before["cell_type"] != "code":
            continue
        meta = before.get("metadata", {}).get("snipcheck", {})
        if meta.get("live") or meta.get("setup"):
            continue
        for drift in compare_output(_stdout(before["outputs"]), _stdout(after["outputs"])):
            problems.append(
                f"{path.name} ({meta.get('snippet', 'a cell')}), output line {drift.line + 1}: "
                f"the notebook shows {drift.documented}, running it printed {drift.computed}"
            )
    return problems


def _setup_source(path: Path) -> str | None:
    data = json.loads(path.read_text(encoding="utf-8"))
    return next(
        (
            "".join(c["source"])
            for c in data["cells"]
            if c["cell_type"] == "code" and c.get("metadata", {}).get("snipcheck", {}).get("setup")
        ),
        None,
    )


def _site_addresses(text: str, site_url: str) -> list[str]:
    return sorted(set(re.findall(re.escape(site_url) + r"[^\s)'\"]*", text)))


def _run_groups(groups: list[tuple[list[Path], Path]], outside: Path, server, env: dict[str, str]) -> list[str]:
    """Run each group of notebooks in kernels of its own Python, ``KERNELS`` kernels at a time across
    the groups: in each group the notebook that installs the most first, alone in its group (the
    others then find it all installed), then the rest; the problems found, group by group."""
    slots = threading.Semaphore(KERNELS)

    def run(path: Path, python: Path) -> list[str]:
        with slots:
            return execute(path, outside / path.stem, python=str(python), env=env)

    def run_group(paths: list[Path], python: Path) -> list[str]:
        wants = {p: _setup_source(p) or "" for p in paths}
        first = max(paths, key=lambda p: (wants[p].count("', '"), p.name))
        assert all((f"'{m}'" in wants[p]) <= (f"'{m}'" in wants[first]) for m in ("attn", "matplotlib") for p in paths)
        assert "'attn', '" + server.url + "downloads/attn-" in wants[first], wants[first]
        rest = [p for p in paths if p != first]
        problems = run(first, python)
        with ThreadPoolExecutor(max_workers=KERNELS) as pool:
            problems += [p for found in pool.map(lambda path: run(path, python), rest) for p in found]
        return problems

    with ThreadPoolExecutor(max_workers=len(groups)) as pool:
        return [p for found in pool.map(lambda group: run_group(*group), groups) for p in found]


def _installed(python: Path) -> set[str]:
    site_packages = sorted(python.parent.parent.glob("lib/python*/site-packages"))
    return {p.name for sp in site_packages for p in sp.iterdir()}


@dataclass
class NotebookRuns:
    """What ``run_downloaded`` found."""

    notebooks: list[Path]  # every .ipynb of the built site
    unaddressed: list[str] = field(default_factory=list)  # notebooks that link nowhere on the site
    without_torch: list[Path] = field(default_factory=list)  # run in Python READER_PYTHON
    with_torch: list[Path] = field(default_factory=list)  # run in Python TORCH_PYTHON
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        return (
            f"{len(self.notebooks)} notebooks executed as downloaded, in fresh kernels, {KERNELS} at a time, in "
            f"{self.seconds:.0f} s: {len(self.without_torch)} of Python {READER_PYTHON}, {len(self.with_torch)} that "
            f"import torch of Python {TORCH_PYTHON}: {len(self.problems)} problems"
        )


def run_downloaded(site, server, pythons: dict[str, Path], constraints: Path, outside: Path) -> NotebookRuns:
    """Every notebook of ``site``, downloaded into ``outside`` (the reader's folder, far from the
    repository) with the site's address pointed at ``server``, run in ``pythons`` (those that import
    torch in TORCH_PYTHON's, the others in READER_PYTHON's), every install pinned by ``constraints``."""
    runs = NotebookRuns(sorted(site.dir.rglob("*.ipynb")))
    downloaded = []
    for path in runs.notebooks:
        text = path.read_text(encoding="utf-8")
        if not _site_addresses(text, TEST_SITE_URL):
            runs.unaddressed.append(path.name)
        copy = outside / "downloads" / path.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(text.replace(TEST_SITE_URL, server.url), encoding="utf-8")
        downloaded.append(copy)
    runs.with_torch = [p for p in downloaded if "'torch'" in (_setup_source(p) or "")]
    runs.without_torch = [p for p in downloaded if p not in runs.with_torch]
    if not (runs.with_torch and runs.without_torch):
        return runs
    start = time.monotonic()
    groups = [(runs.without_torch, pythons[READER_PYTHON]), (runs.with_torch, pythons[TORCH_PYTHON])]
    runs.problems = _run_groups(groups, outside, server, reader_env(constraints))
    runs.seconds = time.monotonic() - start
    return runs
