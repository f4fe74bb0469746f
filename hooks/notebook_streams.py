"""MkDocs hook: an executed notebook shows what each cell printed as one block, on every build.

The kernel sends a cell's prints in chunks, flushed by a 0.2 s timer that can fire in the middle of
a cell (even a timer started by the cell before it), and each chunk becomes an output block of its
own. So two builds of the same notebook could split the same text at different places, and their
HTML differ; the busier the machine, the likelier. nbconvert can merge consecutive chunks
(CoalesceStreamsPreprocessor), but by default it would run before the notebook is executed, and
mkdocs-jupyter has no option for it. mkdocs-jupyter does read the nbconvert configuration on
Jupyter's config path, so this hook puts ``hooks/jupyter`` first on that path: its configuration
runs the merge right after execution.
"""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parent / "jupyter"


def on_config(config):
    """Put CONFIG_DIR first on JUPYTER_CONFIG_PATH (once, whatever else is on it). -> config"""
    others = [path for path in os.environ.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if path]
    os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join([str(CONFIG_DIR), *(p for p in others if p != str(CONFIG_DIR))])
    return config
