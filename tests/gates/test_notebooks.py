"""Every notebook the site offers for download runs where a reader runs it, and prints what the page says.

The build fills each notebook with the outputs of the snippets' verified runs and executes none of
them; this is where they run, as a reader would run them at home: each downloadable ``.ipynb`` of
the built site, as downloaded, is executed top to bottom in a fresh kernel of a fresh virtual
environment of a newer Python (3.12) outside the repository, in an empty folder. That environment
starts with Jupyter's kernel only: the notebook's own first cell installs attn, from the wheel the
site publishes (served from the built site, at the address the notebook names), and whatever else
its snippets import, from the package registry. A cell that raises fails the test, and every cell's
printed output is compared with the output the notebook ships, by the checker's own rule (numbers
at the precision they are printed, text exactly), so a notebook that runs but prints something
else than the page states fails too. Cells of live snippets (timings) store no output and are only
run; the set-up cell checks nothing.

A notebook whose snippets import torch runs in a fresh environment of Python 3.11 instead. The
PyTorch it installs is pinned to the CPU build of toolchain/requirements-torch.txt, and that build
is a wheel for 3.11 (the project's Python): on Linux, PyPI's torch for 3.12 is the CUDA build,
several GB that no snippet uses. So what differs from the 3.12 run is the interpreter only; the
set-up cell, the served attn wheel and the comparison of outputs are the same. Both environments are
made while the site builds (conftest.py), and the two groups of notebooks run side by side, two
kernels at a time in all.

Everything installed is pinned by requirements.lock and toolchain/requirements-torch.txt (as a pip
constraint), so the run is the same on every machine; a reader gets the newest releases instead.
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
from pathlib import Path

import pytest
from readerenv import READER_PYTHON, TORCH_PYTHON, reader_env
from sitekit import TEST_SITE_URL

from snipcheck.numeric import compare_output

pytestmark = pytest.mark.slow

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


@pytest.fixture(scope="module")
def notebooks(site) -> list[Path]:
    found = sorted(site.dir.rglob("*.ipynb"))
    if not found:
        pytest.skip("the site has no notebooks yet")
    return found


def test_every_notebook_ships_the_outputs_of_its_page(notebooks):
    """Downloaded, a notebook already shows what the page shows: every cell of a snippet that
    prints has its printed output stored."""
    empty = []
    for path in notebooks:
        data = json.loads(path.read_text(encoding="utf-8"))
        for cell in data["cells"]:
            meta = cell.get("metadata", {}).get("snipcheck", {})
            if cell["cell_type"] == "code" and meta.get("snippet") and not meta.get("live") and not cell["outputs"]:
                source = "".join(cell["source"])
                if "print(" in source or "savefig(" in source:
                    empty.append(f"{path.name}: {meta['snippet']}")
    assert empty == [], "cells that print or draw but ship no output:\n" + "\n".join(empty)


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


@pytest.fixture(scope="module")
def reader_python(reader_pythons) -> Path:
    """A fresh environment of Python 3.12, for the notebooks that do not import torch."""
    return reader_pythons[READER_PYTHON].result()


@pytest.fixture(scope="module")
def torch_reader_python(reader_pythons) -> Path:
    """A fresh environment of Python 3.11, for the notebooks whose set-up cell installs torch."""
    return reader_pythons[TORCH_PYTHON].result()


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


def test_every_notebook_runs_as_downloaded_in_a_fresh_python_3_12(
    notebooks, reader_python, torch_reader_python, pins_file, server, tmp_path
):
    """Installed by its own first cell, each notebook runs and prints what it shows (those that
    import torch in Python 3.11: see the module docstring). The site is served here under the
    address the build was told it is published at (only its host differs: the notebook's links to
    TEST_SITE_URL are pointed at this server)."""
    outside = tmp_path / "home"  # the reader's folder, far from the repository
    downloaded = []
    for path in notebooks:
        text = path.read_text(encoding="utf-8")
        addresses = _site_addresses(text, TEST_SITE_URL)
        assert addresses, f"{path.name} links nowhere on the published site"
        copy = outside / "downloads" / path.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(text.replace(TEST_SITE_URL, server.url), encoding="utf-8")
        downloaded.append(copy)
    with_torch = [p for p in downloaded if "'torch'" in (_setup_source(p) or "")]
    without = [p for p in downloaded if p not in with_torch]
    assert with_torch and without, "expected notebooks both with and without torch"
    env = reader_env(pins_file)
    start = time.monotonic()
    problems = _run_groups([(without, reader_python), (with_torch, torch_reader_python)], outside, server, env)
    print(
        f"\n{len(notebooks)} notebooks executed as downloaded, in fresh kernels, {KERNELS} at a time, in "
        f"{time.monotonic() - start:.0f} s: {len(without)} of Python {READER_PYTHON}, {len(with_torch)} that "
        f"import torch of Python {TORCH_PYTHON}: {len(problems)} problems"
    )
    assert problems == [], "\n".join(problems)
    assert {"attn", "numpy", "matplotlib"} <= _installed(reader_python), sorted(_installed(reader_python))
    assert {"attn", "numpy", "matplotlib", "torch"} <= _installed(torch_reader_python), sorted(
        _installed(torch_reader_python)
    )
    assert "torch" not in _installed(reader_python), "a notebook without torch installed it"


def test_the_set_up_cell_installs_nothing_where_everything_imports(notebooks, tmp_path):
    """In the project's own environment the first cell finds attn and matplotlib and runs no pip."""
    import nbformat

    setup = next(filter(None, map(_setup_source, notebooks)))
    nb = nbformat.v4.new_notebook()
    assert setup.count("%pip install") == 1
    # As shipped, but pip would fail the cell instead of installing into the project's environment.
    guarded = setup.replace("%pip install", "raise RuntimeError(f'would install {missing}')  #")
    nb.cells = [nbformat.v4.new_code_cell(guarded), nbformat.v4.new_code_cell("print(missing)")]
    nb.cells[-1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="[]\n")]
    nb.cells[-1].metadata["snipcheck"] = {"snippet": "snippets/t.py"}
    path = tmp_path / "setup.ipynb"
    nbformat.write(nb, path)
    assert execute(path, tmp_path / "run") == []


def _notebook(path: Path, cells: list[tuple[str, str]]) -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook()
    for source, shown in cells:
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["snipcheck"] = {"snippet": "snippets/t.py"}
        if shown:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=shown)]
        nb.cells.append(cell)
    nbformat.write(nb, path)
    return path


def test_the_run_catches_a_cell_that_prints_otherwise_and_one_that_raises(tmp_path):
    good = _notebook(tmp_path / "good.ipynb", [("x = 0.2481\nprint(x)", "0.248\n"), ("print('done')", "done\n")])
    assert execute(good, tmp_path / "good") == []
    drifted = _notebook(tmp_path / "drifted.ipynb", [("print(0.25)", "0.248\n")])
    assert execute(drifted, tmp_path / "drifted") == [
        "drifted.ipynb (snippets/t.py), output line 1: the notebook shows 0.248, running it printed 0.25"
    ]
    raising = _notebook(tmp_path / "raising.ipynb", [("raise ValueError('broken')", "")])
    [problem] = execute(raising, tmp_path / "raising")
    assert problem.startswith("raising.ipynb: a cell raised") and "ValueError: broken" in problem
