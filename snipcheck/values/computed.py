"""The values a snippet left at module level, and looking one up by the name a tie gives.

The bootstrap stores each value as ``{"kind", "shape", "data"}``: ``kind`` is ``bool``, ``int``,
``float``, ``complex`` (data holds ``[re, im]`` pairs) or ``unavailable`` (with a ``reason``: too
large an integer, say). Lookups work on these nested lists in plain Python, with numpy's indexing
rules (``x[1, 0]`` is ``x[1][0]``, negative indices count from the end), so the parent process
never converts a value it cannot hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REFERENCE_RE = re.compile(r"^(?:(?P<snippet>[\w.-]+):)?(?P<name>[A-Za-z_]\w*)(?P<index>(?:\[[^\[\]]*\])*)(?P<shape>\.shape(?:\[[^\[\]]*\])?)?$")
_GROUP = re.compile(r"\[([^\[\]]*)\]")
_INT = re.compile(r"^[-+]?\d+$")


class ReferenceError_(ValueError):
    """A reference that cannot be read, or a value that cannot be looked up."""


@dataclass(frozen=True)
class Reference:
    """``SNIPPET:NAME[i, j].shape[k]`` read once, at parse time."""

    text: str
    snippet: str | None  # "02_one_head.py", or None for the nearest run block above
    name: str
    indices: tuple[tuple[int, ...], ...] = ()
    shape: bool = False
    shape_index: tuple[int, ...] | None = None

    @property
    def expr(self) -> str:
        return self.text.split(":", 1)[1] if self.snippet and ":" in self.text else self.text


def parse_reference(text: str) -> Reference:
    """Read a tie's NAME part; raise ReferenceError_ with what to write instead."""
    if re.search(r"""["']""", text):
        raise ReferenceError_(f"cannot read the name {text!r}: a name cannot hold a string; index with integers, as NAME[2, 0]")
    compact = re.sub(r"\s+", "", text)
    match = REFERENCE_RE.match(compact)
    if not match:
        raise ReferenceError_(f"cannot read the name {text!r}: use NAME, NAME[i, j], NAME.shape or SNIPPET:NAME")
    snippet = match["snippet"]
    if snippet is not None:
        if snippet.startswith(".") or ".." in snippet:
            raise ReferenceError_(f"cannot read the snippet name {snippet!r}: name a file in the snippets folder")
        snippet = snippet if snippet.endswith(".py") else snippet + ".py"
    indices = tuple(_ints(group, compact) for group in _GROUP.findall(match["index"] or ""))
    shape_index = None
    if match["shape"] and "[" in match["shape"]:
        shape_index = _ints(_GROUP.findall(match["shape"])[0], compact)
    return Reference(compact, snippet, match["name"], indices, bool(match["shape"]), shape_index)


def _ints(group: str, text: str) -> tuple[int, ...]:
    parts = group.split(",")
    if not group or not all(_INT.match(p) for p in parts):
        raise ReferenceError_(f"cannot read the index [{group}] in {text!r}: index with integers, as NAME[2, 0]")
    return tuple(int(p) for p in parts)


@dataclass(frozen=True)
class Looked:
    """A looked-up value: its kind, shape and nested data."""

    kind: str  # bool, int, float, complex
    shape: tuple[int, ...]
    data: object  # a scalar or nested lists

    def flat(self) -> list:
        """Every element in order; a complex element gives its real and its imaginary part."""
        out: list = []

        def walk(item) -> None:
            if isinstance(item, list):
                for sub in item:
                    walk(sub)
            elif self.kind == "complex":
                out.extend([("re", item[0]), ("im", item[1])])
            else:
                out.append(("re", item))

        if self.kind == "complex" and not self.shape:
            return [("re", self.data[0]), ("im", self.data[1])]
        walk(self.data)
        return out

    def shown(self) -> str:
        """The value for a reader: repr of a float, a list of lists for an array."""
        return _show(self.data, self.kind, bool(self.shape))


def _show(data, kind: str, nested: bool) -> str:
    if kind == "complex" and not (isinstance(data, list) and data and isinstance(data[0], list)):
        if isinstance(data, list) and len(data) == 2 and not isinstance(data[0], list):
            return repr(complex(data[0], data[1]))
    if isinstance(data, list):
        items = [_show(d, kind, True) for d in data]
        if len(items) > 64:
            items = items[:3] + ["..."] + items[-3:]
        return "[" + ", ".join(items) + "]"
    return repr(data)


def lookup(values: dict, ref: Reference) -> Looked:
    """The value ``ref`` names, indexed; raise ReferenceError_ saying what is wrong."""
    entry = values.get(ref.name)
    if entry is None:
        known = ", ".join(sorted(values)) or "none"
        raise ReferenceError_(f"the snippet defines no number or array named {ref.name!r} (it defines: {known})")
    if not isinstance(entry, dict) or "kind" not in entry:
        raise ReferenceError_(f"{ref.name!r} was not recorded in a readable form")
    if entry["kind"] == "unavailable":
        raise ReferenceError_(f"{ref.name!r} cannot be checked: {entry.get('reason', 'it could not be recorded')}")
    shape = tuple(entry["shape"])
    data = entry["data"]
    if data is None and not (ref.shape and not ref.indices):
        raise ReferenceError_(f"{ref.name!r} is too large to keep ({shape}); tie to a smaller value")
    kind = entry["kind"]
    for index in ref.indices:
        if len(index) > len(shape):
            raise ReferenceError_(f"cannot take {ref.expr}: {ref.name} has {len(shape)} dimension(s), the index has {len(index)}")
        for axis, i in enumerate(index):
            size = shape[axis]
            if not -size <= i < size:
                raise ReferenceError_(f"cannot take {ref.expr}: index {i} is out of bounds for axis {axis} with size {size}")
            data = data[i] if data is not None else None
        shape = shape[len(index) :]
    if ref.shape:
        dims = list(shape)
        if ref.shape_index is not None:
            if len(ref.shape_index) != 1 or not -len(dims) <= ref.shape_index[0] < len(dims):
                raise ReferenceError_(f"cannot take {ref.expr}: the shape is {tuple(dims)}")
            return Looked("int", (), dims[ref.shape_index[0]])
        return Looked("int", (len(dims),), dims)
    return Looked(kind, shape, data)
