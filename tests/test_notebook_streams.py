"""hooks/notebook_streams.py: a cell's printed output is one block in the executed notebook, however the
kernel's flush timer fell (two builds of the same notebook must give the same HTML)."""

import importlib.util
import os
import re
from pathlib import Path

import nbformat
import pytest

HOOK = Path(__file__).resolve().parent.parent / "hooks" / "notebook_streams.py"
_spec = importlib.util.spec_from_file_location("hooks_notebook_streams", HOOK)
notebook_streams = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(notebook_streams)

# Two prints 0.5 s apart: the kernel's 0.2 s flush timer always fires between them.
CELL = "import time\nprint('one')\ntime.sleep(0.5)\nprint('two')"


def printed_blocks(tmp_path):
    """Execute a one-cell notebook as mkdocs-jupyter does -> the text of each output block."""
    from mkdocs_jupyter.nbconvert2 import nb2html

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(CELL)]
    path = tmp_path / "streams.ipynb"
    nbformat.write(notebook, path)
    html = nb2html(str(path), execute=True, kernel_name="python3", allow_errors=False)
    return [block for block in re.findall(r"<pre>(.*?)</pre>", html, flags=re.DOTALL) if "<span" not in block]


@pytest.fixture
def config_path(monkeypatch):
    """JUPYTER_CONFIG_PATH as the hook leaves it, restored afterwards."""
    monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    notebook_streams.on_config({})
    return os.environ["JUPYTER_CONFIG_PATH"]


def test_the_hook_puts_its_configuration_first_once(monkeypatch):
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", os.pathsep.join(["/elsewhere", str(notebook_streams.CONFIG_DIR)]))
    for _ in range(2):  # mkdocs serve calls on_config again on every rebuild
        assert notebook_streams.on_config({"site_name": "x"}) == {"site_name": "x"}
    assert os.environ["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(notebook_streams.CONFIG_DIR), "/elsewhere"]


def test_with_the_hook_a_cells_prints_are_one_block(tmp_path, config_path):
    assert printed_blocks(tmp_path) == ["one\ntwo\n"]


def test_without_it_they_would_be_two(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(tmp_path / "no-config-here"))
    assert printed_blocks(tmp_path) == ["one\n", "two\n"]
