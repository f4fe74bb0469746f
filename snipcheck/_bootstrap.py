"""Runs one snippet inside a fresh interpreter and writes what it left behind as JSON.

Invoked as ``python -m snipcheck._bootstrap SNIPPET RESULT_JSON PROJECT_ROOT``. The snippet's
stdout goes straight to the parent; this module only adds, after the run, the snippet's
module-level values (for ties in the prose) and the project files it imported (for the cache).
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import traceback

MAX_ARRAY_SIZE = 10_000  # larger arrays keep only their shape


def main() -> int:
    snippet, result_path, root = sys.argv[1:4]
    root = os.path.realpath(root)
    sys.path[:1] = [os.path.dirname(os.path.realpath(snippet)), root]
    sys.argv = [snippet]
    namespace: dict = {}
    error = None
    try:
        namespace = runpy.run_path(snippet, run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            error = f"the snippet called sys.exit({exc.code!r})"
    except BaseException:  # the parent reports it, with the snippet's own file:line
        error = _traceback(root)
    sys.stdout.flush()
    result = {"error": error, "values": _values(namespace), "imported": _project_files(root, snippet)}
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(result, handle)
    return 0


def _traceback(root: str) -> str:
    """The traceback with this bootstrap's frames dropped and paths relative to the project."""
    exc_type, exc, tb = sys.exc_info()
    frames = [f for f in traceback.extract_tb(tb) if not f.filename.startswith(("<frozen", os.path.dirname(__file__)))]
    for frame in frames:
        if frame.filename.startswith(root + os.sep):
            frame.filename = os.path.relpath(frame.filename, root)
    lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames)]
    lines += traceback.format_exception_only(exc_type, exc)
    return "".join(lines)


def _project_files(root: str, snippet: str) -> list[str]:
    """Every project source file the run imported, found from sys.modules, not declared by hand."""
    own = os.path.dirname(os.path.realpath(__file__))
    venv = os.path.join(root, ".venv")
    found = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not path:
            continue
        path = os.path.realpath(path)
        if path.startswith(root + os.sep) and not path.startswith((venv + os.sep, own + os.sep)):
            found.add(os.path.relpath(path, root))
    found.discard(os.path.relpath(os.path.realpath(snippet), root))
    return sorted(found)


def _values(namespace: dict) -> dict:
    """The snippet's module-level numbers and arrays, as JSON-ready data."""
    numpy = sys.modules.get("numpy")
    values = {}
    for name, value in namespace.items():
        if name.startswith("_"):
            continue
        encoded = _encode(value, numpy)
        if encoded is not None:
            values[name] = encoded
    return values


def _encode(value, numpy):
    if isinstance(value, bool) or isinstance(value, (int, float)):
        return {"shape": [], "data": value}
    if numpy is not None and isinstance(value, (numpy.ndarray, numpy.generic, list, tuple)):
        try:
            array = numpy.asarray(value)
        except (ValueError, TypeError):
            return None
        if array.dtype.kind not in "biuf":
            return None
        data = array.tolist() if array.size <= MAX_ARRAY_SIZE else None
        return {"shape": list(array.shape), "data": data}
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in value):
        return {"shape": [len(value)], "data": list(value)}
    return None


if __name__ == "__main__":
    sys.exit(main())
