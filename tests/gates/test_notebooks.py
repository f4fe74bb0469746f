"""Every notebook the site offers for download runs, and prints what the page says.

The build fills each notebook with the outputs of the snippets' verified runs and executes none of
them; this is where they run. Each downloadable ``.ipynb`` of the built site is executed top to
bottom in a fresh kernel, in an empty folder: a cell that raises fails the test, and every cell's
printed output is compared with the output the notebook ships, by the checker's own rule (numbers
at the precision they are printed, text exactly), so a notebook that runs but prints something
else than the page states fails too. Cells of live snippets (timings) store no output and are only
run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from snipcheck.numeric import compare_output

pytestmark = pytest.mark.slow

RUNNER = Path(__file__).with_name("notebookrun.py")


def _stdout(outputs: list[dict]) -> str:
    return "".join("".join(o["text"]) if isinstance(o["text"], list) else o["text"]
                   for o in outputs if o.get("output_type") == "stream" and o.get("name") == "stdout")


def execute(path: Path, workdir: Path, python: str = sys.executable) -> list[str]:
    """Run the notebook at ``path`` in a fresh kernel of ``python``, in ``workdir``; the problems
    found, one per entry."""
    workdir.mkdir(parents=True, exist_ok=True)
    executed = workdir / path.name
    run = subprocess.run([sys.executable, "-W", "ignore", str(RUNNER), str(path), str(executed), "--python", python],
                         capture_output=True, text=True, timeout=1800)
    if run.returncode != 0:
        tail = "\n".join(line for line in run.stderr.splitlines() if "[IPKernelApp]" not in line)[-3000:]
        return [f"{path.name}: a cell raised (exit {run.returncode}):\n{tail}"]
    shipped = json.loads(path.read_text(encoding="utf-8"))
    ran = json.loads(executed.read_text(encoding="utf-8"))
    problems = []
    for before, after in zip(shipped["cells"], ran["cells"]):
        if before["cell_type"] != "code":
            continue
        meta = before.get("metadata", {}).get("snipcheck", {})
        if meta.get("live"):
            continue
        for drift in compare_output(_stdout(before["outputs"]), _stdout(after["outputs"])):
            problems.append(f"{path.name} ({meta.get('snippet', 'a cell')}), output line {drift.line + 1}: "
                            f"the notebook shows {drift.documented}, running it printed {drift.computed}")
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


def test_every_notebook_runs_and_prints_what_it_shows(notebooks, tmp_path):
    def run(path: Path) -> list[str]:
        return execute(path, tmp_path / path.stem)

    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        problems = [p for found in pool.map(run, notebooks) for p in found]
    print(f"\n{len(notebooks)} notebooks executed in fresh kernels: {len(problems)} problems")
    assert problems == [], "\n".join(problems)


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
        "drifted.ipynb (snippets/t.py), output line 1: the notebook shows 0.248, running it printed 0.25"]
    raising = _notebook(tmp_path / "raising.ipynb", [("raise ValueError('broken')", "")])
    [problem] = execute(raising, tmp_path / "raising")
    assert problem.startswith("raising.ipynb: a cell raised") and "ValueError: broken" in problem
