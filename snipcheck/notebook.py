"""A page's snippets as a Jupyter notebook: the same files, in page order, no second copy.

The notebook's metadata carries a fingerprint of every input of every snippet in it (their
sources, the project files they read, and the environment: interpreter, installed packages,
the runner). A tool that caches on the notebook's bytes, as
mkdocs-jupyter does, therefore re-executes it exactly when one of those inputs changed.
"""

from __future__ import annotations

import hashlib
import json

from .document import Document
from .results import SnippetResult


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines:
        lines[-1] = lines[-1].rstrip("\n")
    return lines


def _markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _lines(text)}


def _code(text: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": _lines(text)}


def fingerprint(names: list[str], sources: dict[str, str], results: dict[str, SnippetResult], environment: str = "") -> str:
    digest = hashlib.sha256(environment.encode() + b"\0")
    for name in names:
        digest.update(name.encode() + b"\0" + sources.get(name, "").encode() + b"\0")
        imported = results[name].imported if name in results else {}
        for rel, sha in sorted(imported.items()):
            digest.update(f"{rel}={sha}\0".encode())
    return digest.hexdigest()


def notebook_for(doc: Document, title: str, page_link: str, sources: dict[str, str],
                 results: dict[str, SnippetResult], file_name: str = "", environment: str = "") -> str | None:
    """The notebook JSON for a page's run blocks, or None if the page runs no snippet."""
    names = list(dict.fromkeys(run.snippet for run in doc.runs))
    if not names:
        return None
    cells = [_markdown(
        f"# {title}: the code\n\n"
        f"Every snippet of the page [{title}]({page_link}), in page order. These are the same files "
        "the site runs when it is built, so the numbers printed here are the ones the page states.\n\n"
        "Each snippet was written to run on its own, in a fresh interpreter; here they share one "
        "kernel, so run the cells from the top."
        + (f"\n\n[Download this notebook]({file_name}) (`{file_name}`)." if file_name else "")
    )]
    for name in names:
        cells.append(_markdown(f"## snippets/{name}"))
        cells.append(_code(sources.get(name, "")))
    notebook = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "snipcheck": {"page": doc.path, "inputs": fingerprint(names, sources, results, environment)},
        },
        "nbformat": 4,
        "nbformat_minor": 4,
    }
    return json.dumps(notebook, indent=1, sort_keys=True) + "\n"
