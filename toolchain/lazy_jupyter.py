"""mkdocs-jupyter's plugin, with its notebook converter imported when a notebook is converted.

mkdocs-jupyter imports its converter, and with it nbconvert, when MkDocs loads the plugin: about
a second on every build and every ``mkdocs serve`` start (nbconvert lists every exporter installed
as it loads), although a build whose notebooks mkdocs-jupyter's own cache holds never converts
one. Here the converter module (``mkdocs_jupyter.convert``) is loaded lazily, by the standard
library's ``importlib.util.LazyLoader``: it is imported whole, nbconvert and mkdocs-jupyter's
changes to it included, at the first use of any of its names, before that name is read. The
plugin also imports jupytext (a tenth of a second), which it uses only to read a Markdown page it
is not told to ignore: the plugin's module is imported with a stand-in for it (``OnFirstUse``),
which imports jupytext at the first use of any of its names. The plugin itself is
mkdocs-jupyter's, unchanged: ``mkdocs.yml`` names this entry point, ``mkdocs-jupyter-lazy``,
instead of ``mkdocs-jupyter``, with the same settings.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

CONVERTER = "mkdocs_jupyter.convert"
JUPYTEXT = "jupytext"


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


class OnFirstUse(types.ModuleType):
    """Stands for the module of its name where it was imported: the first read of any of its
    names imports the module itself (from then on, as anyone else imports it) and reads it there.
    ``import NAME`` reads a module's ``__spec__``, which would load a ``LazyLoader`` module whole:
    this one has its own (None)."""

    def __getattr__(self, attribute: str):
        return getattr(importlib.import_module(self.__name__), attribute)


def import_with_stand_in(module: str, name: str) -> types.ModuleType:
    """Import ``module`` while an ``OnFirstUse`` stands for module ``name`` in ``sys.modules``;
    nothing imported after it sees the stand-in. A module loaded already is used as it is."""
    if name in sys.modules:
        return importlib.import_module(module)
    stand_in = OnFirstUse(name)
    sys.modules[name] = stand_in
    try:
        return importlib.import_module(module)
    finally:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]


load_lazily(CONVERTER)
Plugin = import_with_stand_in("mkdocs_jupyter.plugin", JUPYTEXT).Plugin

__all__ = ["Plugin"]
