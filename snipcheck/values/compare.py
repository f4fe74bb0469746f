"""Whether a computed value matches the documented one, and how a measured value is shown."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from ..numeric import Number, three_significant
from .computed import Looked
from .documented import DocumentedValue, ValueKind


def compare_value(documented: DocumentedValue, looked: Looked) -> tuple[bool, str]:
    """(matches, detail for the message)."""
    atoms = documented.atoms
    if documented.kind is ValueKind.BOOL:
        if looked.kind != "bool" or looked.shape not in ((), (1,)):
            return False, "a boolean is documented, the value is not one"
        value = looked.data if not looked.shape else looked.data[0]
        return atoms[0].boolean is bool(value), ""
    if looked.kind == "bool":
        return False, "the value is a boolean: write True or False"
    flat = looked.flat()
    if len(atoms) != len(flat):
        return False, f"{_count(len(atoms))} documented, {_count(len(flat))} computed"
    bad = []
    for atom, (part, value) in zip(atoms, flat, strict=True):
        if atom.imaginary != (part == "im") or not atom.number.accepts(_exact_text(value)):
            bad.append(f"{atom.text} vs {_exact_text(value)}{'j' if part == 'im' else ''}")
    if bad:
        return False, "; ".join(bad) if len(atoms) > 1 else ""
    return True, ""


def _count(n: int) -> str:
    return f"{n} number" + ("" if n == 1 else "s")


def _exact_text(value) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)


def measured_text(value, low: Number, high: Number) -> str:
    """Three significant digits, or every digit when the rounded value would hide which side of a
    bound the measurement lies on."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    text = three_significant(float(value))
    try:
        inside = low.value() <= Decimal(repr(value)) <= high.value()
        shown_inside = low.value() <= Decimal(text) <= high.value()
    except (InvalidOperation, ValueError):
        return text
    return text if inside == shown_inside else repr(value)
