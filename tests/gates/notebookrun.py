"""Execute one notebook in a fresh kernel: ``python notebookrun.py IN.ipynb OUT.ipynb --python PY``.

The kernel is ``PY -m ipykernel_launcher`` (any interpreter with ipykernel: the project's, or a
fresh virtual environment's), started in the folder of OUT with one BLAS thread and a fixed hash
seed. Every cell runs top to bottom; the executed notebook is written to OUT. Exit 0 when every
cell ran, 1 when one raised (its traceback, without colour codes, on stderr). A separate process,
so the Jupyter client's sockets and event loop never meet the test run's warning filters.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

KERNEL_ENV = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
    "MPLBACKEND": "Agg",
}
CELL_TIMEOUT = 300
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook")
    parser.add_argument("out")
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()

    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    notebook = nbformat.read(args.notebook, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    with tempfile.TemporaryDirectory(prefix="kernelspec-") as specs:
        spec = Path(specs) / "notebook-test"
        spec.mkdir()
        (spec / "kernel.json").write_text(
            json.dumps(
                {
                    "argv": [args.python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                    "display_name": "notebook test",
                    "language": "python",
                    "env": KERNEL_ENV,
                }
            ),
            encoding="utf-8",
        )
        manager = KernelManager(kernel_name="notebook-test", kernel_spec_manager=KernelSpecManager(kernel_dirs=[specs]))
        client = NotebookClient(
            notebook,
            km=manager,
            timeout=CELL_TIMEOUT,
            allow_errors=False,
            resources={"metadata": {"path": str(out.parent)}},
        )
        try:
            client.execute()
        except CellExecutionError as exc:
            print(_ANSI.sub("", str(exc)), file=sys.stderr)
            return 1
        finally:
            nbformat.write(notebook, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
