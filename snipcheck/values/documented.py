"""A value as a page documents it: read once, when the page is read, into its kind and its
atoms (each documented scalar with its span, so ``accept`` can write a computed value back in
place). ``True``/``False``, a number, a complex number or a (nested) list or tuple of numbers.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import lru_cache

from ..numeric import MINUS, NUMBER_RE, NUMPY_PRECISION, Number

_RANGE = re.compile(r"^(?P<low>\S+?)\s*\.\.\s*(?P<high>\S+)$")


class ValueKind(enum.Enum):
    """What a tie documents: decided once, when the page is read."""

    BOOL = "boolean"
    NUMBER = "number"
    COMPLEX = "complex number"
    SEQUENCE = "list of numbers"


@dataclass(frozen=True)
class Atom:
    """One documented scalar in a tie: a number (or an imaginary part) or a boolean."""

    text: str
    start: int  # offset in the tie's documented text
    end: int
    number: Number | None = None
    boolean: bool | None = None

    @property
    def imaginary(self) -> bool:
        return self.number is not None and self.number.imaginary


@dataclass(frozen=True)
class DocumentedValue:
    kind: ValueKind
    text: str
    atoms: tuple[Atom, ...]


def parse_range(text: str) -> tuple[Number, Number] | str:
    """``LOW..HIGH`` -> the two bounds, or a message saying what is wrong."""
    match = _RANGE.match(text.strip())
    if not match:
        return f"cannot read the range {text!r}: write LOW..HIGH, as {{{{ 3..5 ~ NAME }}}}"
    bounds = []
    for part in (match["low"], match["high"]):
        number = NUMBER_RE.fullmatch(part)
        if not number or part.endswith("j") or "nan" in part:
            return f"cannot read the range {text!r}: {part!r} is not a number"
        bounds.append(Number(part))
    low, high = bounds
    if low.value() > high.value():
        return f"the range {text!r} is empty: its low end {low.text} is above its high end {high.text}"
    return low, high


def parse_value(text: str) -> DocumentedValue | str:
    """A documented value -> its kind and atoms, or a message saying what to write instead."""
    return _parse_value(text)


@lru_cache(maxsize=16384)
def _parse_value(text: str) -> DocumentedValue | str:
    """``parse_value``, remembered by the exact text (a DocumentedValue is immutable)."""
    reader = _ValueReader(text)
    try:
        kind = reader.read()
    except ValueError as exc:
        return f"cannot read the documented value {text!r} ({exc}): write a number, a list [a, b], a shape (a, b), True or False"
    atoms = _array_precision(text, reader.atoms)
    return DocumentedValue(kind, text, tuple(atoms))


class _ValueReader:
    def __init__(self, text: str) -> None:
        self.text, self.pos, self.atoms = text, 0, []

    def read(self) -> ValueKind:
        self._space()
        if self.text.startswith(("True", "False"), self.pos):
            word = "True" if self.text.startswith("True", self.pos) else "False"
            self.atoms.append(Atom(word, self.pos, self.pos + len(word), boolean=word == "True"))
            self.pos += len(word)
            kind = ValueKind.BOOL
        elif self.pos < len(self.text) and self.text[self.pos] in "[(":
            self._sequence()
            kind = ValueKind.SEQUENCE
        else:
            kind = self._scalar()
        self._space()
        if self.pos != len(self.text):
            raise ValueError(f"unexpected {self.text[self.pos :]!r}")
        return kind

    def _space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def _scalar(self) -> ValueKind:
        match = NUMBER_RE.match(self.text, self.pos)
        if not match:
            raise ValueError(f"{self.text[self.pos : self.pos + 12]!r} is not a number")
        self.atoms.append(Atom(match.group(), match.start(), match.end(), Number(match.group())))
        self.pos = match.end()
        if match.group().endswith("j"):
            return ValueKind.COMPLEX
        glued = NUMBER_RE.match(self.text, self.pos)
        if glued and glued.group().endswith("j") and glued.group()[0] in "+-" + MINUS:
            self.atoms.append(Atom(glued.group(), glued.start(), glued.end(), Number(glued.group())))
            self.pos = glued.end()
            return ValueKind.COMPLEX
        return ValueKind.NUMBER

    def _sequence(self) -> None:
        closing = {"[": "]", "(": ")"}[self.text[self.pos]]
        self.pos += 1
        self._space()
        if self.pos < len(self.text) and self.text[self.pos] == closing:
            self.pos += 1
            return
        while True:
            self._space()
            if self.pos < len(self.text) and self.text[self.pos] in "[(":
                self._sequence()
            elif self.text.startswith(("True", "False"), self.pos):
                raise ValueError("a list of booleans cannot be tied; tie each one")
            else:
                self._scalar()
            self._space()
            if self.pos >= len(self.text):
                raise ValueError(f"{closing!r} is missing")
            char = self.text[self.pos]
            self.pos += 1
            if char == closing:
                return
            if char != ",":
                raise ValueError(f"expected ',' or {closing!r}, found {char!r}")
            self._space()
            if self.pos < len(self.text) and self.text[self.pos] == closing:  # a trailing comma: (4,)
                self.pos += 1
                return


def _array_precision(text: str, atoms: list[Atom]) -> list[Atom]:
    """The trailing-dot rule for a documented list: ``1.`` takes the most decimals of its list."""
    numbers = [a.number for a in atoms if a.number is not None and not a.number.trailing_dot and "." in a.number.mantissa]
    places = max((n.mantissa_decimals() for n in numbers), default=NUMPY_PRECISION) if text.lstrip().startswith("[") else NUMPY_PRECISION
    return [
        Atom(a.text, a.start, a.end, Number(a.number.text, places), a.boolean) if a.number is not None and a.number.trailing_dot else a for a in atoms
    ]
