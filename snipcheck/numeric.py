"""Numbers as a page prints them, and the rule that decides whether a computed value matches.

A documented number carries its own tolerance: the precision it is written at. ``0.248`` stands
for every value in [0.2475, 0.2485]; ``1033.0`` for [1032.95, 1033.05]; an integer such as ``256``
only for 256 itself. ``nan`` and ``inf`` only equal themselves; ``-0.0`` equals ``0.0``.

Output text is compared token by token: numbers by that rule, everything else exactly, with
whitespace only separating tokens (numpy's column alignment moves when a number's width changes).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# numpy >= 2 prints scalars as np.float64(0.5); that is the same number as 0.5.
_NUMPY_SCALAR = re.compile(r"\bnp\.(?:float|int|uint|complex)\d*\(([^()]*)\)")
_NUMBER = re.compile(
    r"""(?<![\w.])                       # not glued to an identifier or another number
        [-+]?(?:
            (?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?
          | nan | inf
        )
        (?![\w])""",
    re.VERBOSE,
)
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Number:
    """A number as written: its text, its value, and the interval it stands for."""

    text: str

    @property
    def is_integer(self) -> bool:
        return re.fullmatch(r"[-+]?\d+", self.text.replace(",", "")) is not None

    def value(self) -> Decimal:
        return Decimal(self.text.replace(",", ""))

    def decimals(self) -> int:
        """How many digits after the point the text shows (negative for '5e3'-style exponents)."""
        exp = self.value().as_tuple().exponent
        return -exp if isinstance(exp, int) else 0

    def interval(self) -> tuple[Decimal, Decimal]:
        value = self.value()
        if self.is_integer:
            return value, value
        half = Decimal(5).scaleb(-self.decimals() - 1)
        return value - half, value + half

    def accepts(self, computed: float | int | str | Decimal) -> bool:
        """True if ``computed`` lies within the precision this number is written at."""
        documented = self.value()
        try:
            actual = computed if isinstance(computed, Decimal) else Decimal(str(computed))
        except InvalidOperation:
            return False
        if documented.is_nan() or actual.is_nan():
            return documented.is_nan() and actual.is_nan()
        if documented.is_infinite() or actual.is_infinite():
            return documented == actual
        low, high = self.interval()
        return low <= actual <= high

    def format_like(self, computed: float | int) -> str:
        """``computed`` written at this number's precision (used to accept an intended change)."""
        if isinstance(computed, float) and not math.isfinite(computed):
            return str(computed)
        if self.is_integer and float(computed).is_integer():
            return str(int(computed))
        places = max(self.decimals(), 0)
        if "e" in self.text.lower():
            mantissa_digits = len(self.text.lower().split("e")[0].split(".")[-1]) if "." in self.text else 0
            return f"{float(computed):.{mantissa_digits}e}"
        text = f"{float(computed):.{places}f}"
        return "0" + text[2:] if text.startswith("-0") and float(text) == 0 else text


@dataclass(frozen=True)
class Token:
    """One token of output text: a number or a run of other non-space characters."""

    text: str
    line: int  # 0-based line within the text it came from
    number: Number | None = None


def normalise(text: str) -> str:
    """Undo numpy's scalar wrappers so ``np.float64(0.5)`` reads as ``0.5``."""
    return _NUMPY_SCALAR.sub(r"\1", text)


def tokenize(text: str) -> list[Token]:
    """Split output text into number tokens and text tokens; whitespace only separates."""
    tokens: list[Token] = []
    for line_no, line in enumerate(normalise(text).splitlines()):
        pos = 0
        for match in _NUMBER.finditer(line):
            tokens.extend(_text_tokens(line[pos : match.start()], line_no))
            tokens.append(Token(match.group(), line_no, Number(match.group())))
            pos = match.end()
        tokens.extend(_text_tokens(line[pos:], line_no))
    return tokens


def _text_tokens(chunk: str, line_no: int) -> list[Token]:
    return [Token(word, line_no) for word in _SPACE.split(chunk) if word]


@dataclass(frozen=True)
class Drift:
    """Where documented output and computed output part ways."""

    line: int  # 0-based line in the documented text
    documented: str
    computed: str


def compare_output(documented: str, computed: str) -> list[Drift]:
    """Every place the computed output drifts from the documented output.

    Numbers that drift are listed one by one. If the text around them differs (a missing row, a
    different word) the comparison stops there, with the two lines side by side.
    """
    doc_tokens, got_tokens = tokenize(documented), tokenize(computed)
    doc_lines, got_lines = normalise(documented).splitlines(), normalise(computed).splitlines()
    drifts: list[Drift] = []
    for doc, got in zip(doc_tokens, got_tokens):
        if doc.number is not None and got.number is not None:
            if not doc.number.accepts(got.number.text):
                drifts.append(Drift(doc.line, doc.text, got.text))
            continue
        if doc.text != got.text:
            drifts.append(Drift(doc.line, _line(doc_lines, doc.line), _line(got_lines, got.line)))
            return drifts
    if len(doc_tokens) != len(got_tokens):
        if len(doc_tokens) > len(got_tokens):
            extra = doc_tokens[len(got_tokens)]
            drifts.append(Drift(extra.line, _line(doc_lines, extra.line), "(output ends here)"))
        else:
            extra = got_tokens[len(doc_tokens)]
            last = doc_tokens[-1].line if doc_tokens else 0
            drifts.append(Drift(last, "(documented output ends here)", _line(got_lines, extra.line)))
    return drifts


def _line(lines: list[str], index: int) -> str:
    return lines[index].strip() if 0 <= index < len(lines) else ""
