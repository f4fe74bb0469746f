"""mkdocs-jupyter's plugin, with its notebook converter imported when a notebook is converted.

mkdocs-jupyter imports its converter, and with it nbconvert, when MkDocs loads the plugin: about
a second on every build and every ``mkdocs serve`` start (nbconvert lists every exporter installed
as it loads), although a build whose notebooks mkdocs-jupyter's own cache holds never converts
one. Here the converter module (``mkdocs_jupyter.convert``) is loaded lazily, by the standard
library's ``importlib.util.LazyLoader``: it is imported whole, nbconvert and mkdocs-jupyter's
changes to it included, at the first use of any of its names, before that name is read. The
plugin itself is mkdocs-jupyter's, unchanged: ``mkdocs.yml`` names this entry point,
``mkdocs-jupyter-lazy``, instead of ``mkdocs-jupyter``, with the same settings.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

CONVERTER = "mkdocs_jupyter.convert"


def load_lazily(name: str) -> None:
    """Put a lazily loading module ``name`` (a submodule) in ``sys.modules`` and on its package,
    so that ``from package import module`` binds it without running it; nothing if it is loaded
    already or cannot be found."""
    if name in sys.modules:
        return
    package_name, _, child = name.rpartition(".")
    package = importlib.import_module(package_name)
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)  # runs nothing yet: the first attribute read does
    setattr(package, child, module)  # else the import system reads the module's __spec__, loading it


load_lazily(CONVERTER)

from mkdocs_jupyter.plugin import Plugin  # noqa: E402 - after the converter is made lazy

__all__ = ["Plugin"]
