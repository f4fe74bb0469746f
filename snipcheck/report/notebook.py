"""A page's snippets as a Jupyter notebook: the same files, in page order, no second copy, each
cell already showing what the build's verified run of that snippet printed and drew.

The outputs are the checked results themselves (stdout as a stream, each figure the snippet saved
as an image), so the notebook shows exactly the numbers the page states without any kernel running
at build time. Executing the notebooks is the test suite's job (tests/gates/test_notebooks.py):
every cell must run, and print what the build recorded.

A snippet split into cells (``# %% NAME``, see read/cells.py) gives one notebook cell per snippet
cell, each holding that cell's own part of the verified output.

A snippet that runs ``live`` (a timing) measures the machine that runs it: its cell is marked
``"live": true`` in its ``snipcheck`` metadata and holds no stored output, and the heading above
it says so (the page shows what the site's build measured; the reader's run measures theirs).
So the notebook's bytes change only when a verified result does, and a builder that caches on
them (mkdocs-jupyter does) renders it again only then.

A notebook is also read far from the site: downloaded, it runs wherever the reader opens it. So its
first code cell (``install_cell``) installs what the snippets import and the reader may lack (the
project's own library, from the wheel the site publishes, say) when importing it fails; in an
environment that has them (the project's own) it installs nothing.
"""

from __future__ import annotations

import ast
import json
import posixpath
import re
from collections.abc import Collection

from ..kept import by_text
from ..read.cells import split_cells
from ..read.page import Document
from ..run.result import SnippetResult

# The MIME type each figure file is shown as; any other file a snippet wrote is not an image.
IMAGE_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif"}
LIVE_NOTE = (
    "\n\nThis snippet measures time on the machine that runs it, so no output is stored here: "
    "run the cell to see your machine's numbers. The page shows what the site's build measured."
)


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines:
        lines[-1] = lines[-1].rstrip("\n")
    return lines


def _markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _lines(text)}


def _outputs(result: SnippetResult | None, cell: str | None = None, figures: Collection[str] | None = None) -> list[dict]:
    """What the verified run printed (one stream: all of it, or one cell's part) and drew (one
    image per figure file: every one, or those named in ``figures``)."""
    if result is None or result.error is not None or result.pending or result.live:
        return []
    outputs = []
    stdout = result.output(cell)
    if stdout:
        outputs.append({"name": "stdout", "output_type": "stream", "text": stdout.splitlines(keepends=True)})
    for name in sorted(result.figures if figures is None else set(figures) & set(result.figures)):
        mime = IMAGE_TYPES.get(posixpath.splitext(name)[1].lower())
        if mime is None:
            continue
        if mime == "image/svg+xml":
            data = result.figure_bytes(name).decode("utf-8", "replace").splitlines(keepends=True)
        else:
            data = result.figures[name]  # base64, as nbformat stores binary images
        outputs.append({"data": {mime: data, "text/plain": [f"<figure {name}>"]}, "metadata": {}, "output_type": "display_data"})
    return outputs


def _code(text: str, label: str, result: SnippetResult | None, count: int, cell: str | None = None, figures: Collection[str] | None = None) -> dict:
    meta = {"snippet": label}
    if cell is not None:
        meta["cell"] = cell
    if result is not None and result.live:
        meta["live"] = True
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {"snipcheck": meta},
        "outputs": _outputs(result, cell, figures),
        "source": _lines(text),
    }


# A figure a cell saves by a name written in it: ``fig.savefig("loss.svg")``.
_SAVED = re.compile(r"""\bsavefig\(\s*(["'])([^"']+)\1""")


def _cell_figures(pieces, result: SnippetResult | None) -> list[set[str]]:
    """The figures each cell shows: those it saves by a name written in it; the rest (a name
    computed at run time) go with the last cell, which runs once the file has drawn them all."""
    drawn = set(result.figures) if result is not None else set()
    named = [{m[2] for m in _SAVED.finditer(piece.code)} & drawn for piece in pieces]
    named[-1] |= drawn - set().union(*named)
    return named


def _snippet_cells(name: str, label: str, source: str, result: SnippetResult | None, count: int) -> list[dict]:
    """The code cells of one snippet: one, or one per cell of a file split into cells, each with
    its own part of the output and the figures it drew (``_cell_figures``)."""
    pieces = split_cells(source).cells
    if not pieces:
        return [_code(source, label, result, count)]
    figures = _cell_figures(pieces, result)
    return [_code(piece.code, label, result, count + k, piece.name, figures[k]) for k, piece in enumerate(pieces)]


def imported_modules(sources: list[str]) -> set[str]:
    """The top-level names of every module that ``sources`` import (``import a.b``, ``from a
    import b``; relative imports and sources that do not parse count for nothing)."""
    return set().union(*map(_imports_of, sources)) if sources else set()


@by_text("imports", encode=sorted, decode=frozenset)  # read once, not once a build
def _imports_of(source: str) -> frozenset[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return frozenset(found)


def install_cell(requires: dict[str, str]) -> dict | None:
    """A code cell that pip-installs, in the running kernel, each requirement whose module does not
    import (``requires``: module -> what ``pip install`` takes: a name, a pinned name, a wheel's URL);
    None when there is nothing to install. Marked ``"setup": true`` in its ``snipcheck`` metadata:
    it checks nothing and stores no output."""
    if not requires:
        return None
    names = ", ".join(sorted(requires))
    pairs = "".join(f"\n    ({module!r}, {spec!r})," for module, spec in sorted(requires.items()))
    source = (
        f"# Set-up: the snippets below import {names}. Where each imports already (the project's own\n"
        "# environment), this cell installs nothing; elsewhere it installs what is missing with pip.\n"
        "import importlib\n\n"
        f"missing = []\nfor module, requirement in [{pairs}\n]:\n"
        "    try:\n        importlib.import_module(module)\n    except ImportError:\n"
        "        missing.append(requirement)\n"
        "if missing:\n"
        "    %pip install --quiet {' '.join(missing)}\n"
        "    importlib.invalidate_caches()"
    )
    return {"cell_type": "code", "execution_count": None, "metadata": {"snipcheck": {"setup": True}}, "outputs": [], "source": _lines(source)}


def notebook_for(
    doc: Document,
    title: str,
    page_link: str,
    sources: dict[str, str],
    results: dict[str, SnippetResult],
    file_name: str = "",
    first_cells: list[dict] | None = None,
    requires: dict[str, str] | None = None,
    snippets_prefix: str = "snippets",
) -> str | None:
    """The notebook JSON for a page's run blocks, or None if the page runs no snippet.

    ``page_link`` is where the notebook links to its page and ``file_name`` where it is downloaded
    from (a name beside its page, or an absolute URL); ``first_cells`` go before the snippets;
    ``requires`` (module -> pip requirement): the set-up cell installs those of them the snippets
    import, when they are missing (``install_cell``); ``snippets_prefix``: the snippets folder as the
    cells name it."""
    names = list(dict.fromkeys(run.snippet for run in doc.runs))
    if not names:
        return None
    cells = [
        _markdown(
            f"# {title}: the code\n\n"
            f"Every snippet of the page [{title}]({page_link}), in page order. These are the same files "
            "the site runs when it is built, and the outputs shown are the ones that build recorded and "
            "checked against the page.\n\n"
            "Each snippet was written to run on its own, in a fresh interpreter; here they share one "
            "kernel, so run the cells from the top."
            + (f"\n\n[Download this notebook]({file_name}) (`{posixpath.basename(file_name)}`)." if file_name else "")
        )
    ]
    cells += first_cells or []
    imported = imported_modules([sources.get(name, "") for name in names])
    setup = install_cell({module: spec for module, spec in (requires or {}).items() if module in imported})
    if setup is not None:
        cells.append(setup)
    count = 1
    for name in names:
        live = name in results and results[name].live
        cells.append(_markdown(f"## {snippets_prefix}/{name}" + (LIVE_NOTE if live else "")))
        code = _snippet_cells(name, f"{snippets_prefix}/{name}", sources.get(name, ""), results.get(name), count)
        cells += code
        count += len(code)
    notebook = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "snipcheck": {"page": doc.path},
        },
        "nbformat": 4,
        "nbformat_minor": 4,
    }
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
