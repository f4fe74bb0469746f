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
made while the site builds, the run starts as soon as it is built (pipeline.py), and the two groups
of notebooks run side by side, two kernels at a time in all.

Everything installed is pinned by requirements.lock and toolchain/requirements-torch.txt (as a pip
constraint), so the run is the same on every machine; a reader gets the newest releases instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from notebookgate import _installed, _setup_source, execute
from readerenv import READER_PYTHON, TORCH_PYTHON

pytestmark = pytest.mark.slow


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


def test_every_notebook_runs_as_downloaded_in_a_fresh_python_3_12(notebooks, notebook_runs, reader_pythons):
    """Installed by its own first cell, each notebook runs and prints what it shows (those that
    import torch in Python 3.11: see the module docstring). The site is served under the address
    the build was told it is published at (only its host differs: the notebook's links to
    TEST_SITE_URL are pointed at the test's server). The run starts as soon as the site is built
    (pipeline.py), beside the other tests."""
    runs = notebook_runs
    assert runs.notebooks == notebooks
    assert runs.unaddressed == [], f"notebooks that link nowhere on the published site: {runs.unaddressed}"
    assert runs.with_torch and runs.without_torch, "expected notebooks both with and without torch"
    print(f"\n{runs.summary()}")
    assert runs.problems == [], "\n".join(runs.problems)
    reader_python, torch_reader_python = reader_pythons[READER_PYTHON], reader_pythons[TORCH_PYTHON]
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
