"""Numbers as a page prints them, and the rule that decides whether a computed value matches.

A documented number carries its own tolerance: the precision it is written at. ``0.248`` stands
for every value in [0.2475, 0.2485]; ``1033.0`` for [1032.95, 1033.05]; an integer such as ``256``
only for 256 itself. ``nan`` and ``inf`` only equal themselves; ``-0.0`` equals ``0.0``.

The trailing-dot rule: numpy strips trailing zeros, so ``1.`` printed in an array beside
``0.802`` is 1.000. A number written with a trailing dot takes the most decimals printed by any
other number of its array (the outermost ``[...]`` it stands in); with none to go by (``[1. 0.]``,
or a ``1.`` outside brackets) it stands for an integer at numpy's print precision, 8 decimals.
A trailing dot never means "give or take 0.5".

A Unicode minus (U+2212) is a minus sign. ``20,000`` is one number. A complex number printed by
numpy or Python (``0.5+1.2j``, ``1. -0.j``) is two numbers, its real and its imaginary part, each
compared at its own printed precision.

Output text is compared token by token: numbers by that rule, everything else exactly, with
whitespace only separating tokens (numpy's column alignment moves when a number's width changes).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache

MINUS = "\u2212"
NUMPY_PRECISION = 8  # numpy's default print precision: what a bare "1." is exact to

# numpy >= 2 prints scalars as np.float64(0.5); that is the same number as 0.5.
_NUMPY_SCALAR = re.compile(r"\bnp\.(?:float|int|uint|complex)\d*\(([^()]*)\)")
_NUMPY_BOOL = re.compile(r"\bnp\.(True|False)_")
_BODY = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf)"
NUMBER_RE = re.compile(
    rf"""(?<![\w.])[-+\u2212]?{_BODY}j?(?![\w])        # a number (j: an imaginary part)
       | (?<=[\d.])[-+\u2212]{_BODY}j(?![\w])          # the imaginary part glued to a real part""",
    re.VERBOSE,
)
_SPACE = re.compile(r"\s+")


def split_lines(text: str) -> list[str]:
    """Lines as MkDocs counts them: at \\n, \\r\\n or \\r only (not at U+2028, U+0085, form feed)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def normalise(text: str) -> str:
    """Undo numpy's scalar wrappers so ``np.float64(0.5)`` reads as ``0.5``."""
    return _NUMPY_BOOL.sub(r"\1", _NUMPY_SCALAR.sub(r"\1", text))


@dataclass(frozen=True)
class Number:
    """A number as written: its text, its value, and the interval it stands for.

    ``places`` overrides the decimals of the mantissa (set by the trailing-dot rule)."""

    text: str
    places: int | None = None

    @property
    def plain(self) -> str:
        """The text Decimal reads: ASCII minus, no thousands separators, no ``j``."""
        return self.text.replace(MINUS, "-").replace(",", "").removesuffix("j")

    @property
    def imaginary(self) -> bool:
        return self.text.endswith("j")

    @property
    def is_integer(self) -> bool:
        return re.fullmatch(r"[-+]?\d+", self.plain) is not None

    @property
    def trailing_dot(self) -> bool:
        return self.mantissa.endswith(".")

    @property
    def mantissa(self) -> str:
        return re.split(r"[eE]", self.plain)[0]

    def value(self) -> Decimal:
        return Decimal(self.plain)

    def mantissa_decimals(self) -> int:
        if self.places is not None and self.trailing_dot:
            return self.places
        if self.trailing_dot:
            return NUMPY_PRECISION
        _, _, fraction = self.mantissa.partition(".")
        return len(fraction)

    def decimals(self) -> int:
        """How many decimal places the number is exact to (negative for '5e3'-style exponents)."""
        parts = re.split(r"[eE]", self.plain)
        exponent = int(parts[1]) if len(parts) > 1 else 0
        return self.mantissa_decimals() - exponent

    def interval(self) -> tuple[Decimal, Decimal]:
        value = self.value()
        if self.is_integer:
            return value, value
        half = Decimal(5).scaleb(-self.decimals() - 1)
        return value - half, value + half

    def accepts(self, computed: float | int | str | Decimal) -> bool:
        """True if ``computed`` lies within the precision this number is written at."""
        try:
            documented = self.value()
            actual = computed if isinstance(computed, Decimal) else Decimal(str(computed).replace(MINUS, "-").replace(",", "").removesuffix("j"))
        except (InvalidOperation, ValueError):
            return False
        if documented.is_nan() or actual.is_nan():
            return documented.is_nan() and actual.is_nan()
        if documented.is_infinite() or actual.is_infinite():
            return documented == actual
        low, high = self.interval()
        return low <= actual <= high

    def format_like(self, computed: float | int) -> str:
        """``computed`` written at this number's precision (used to accept an intended change).

        Falls back to the shortest text that the rule accepts when the documented precision
        cannot hold the value (an integer documented, a fraction computed)."""
        text = self._format_like(computed)
        if not Number(text).accepts(_exact(computed)):
            text = _shortest_accepted(computed)
        return text

    def _format_like(self, computed: float | int) -> str:
        if isinstance(computed, float) and not math.isfinite(computed):
            return str(computed)
        if isinstance(computed, int) and not isinstance(computed, bool):
            return f"{computed:,}" if "," in self.text else str(computed)
        if self.is_integer and float(computed).is_integer():
            value = int(computed)
            return f"{value:,}" if "," in self.text else str(value)
        if "e" in self.plain.lower():
            return f"{float(computed):.{max(self.mantissa_decimals(), 0)}e}"
        places = max(self.decimals(), 0)
        text = f"{float(computed):,.{places}f}" if "," in self.text else f"{float(computed):.{places}f}"
        return "0" + text[2:] if text.startswith("-0") and float(text.replace(",", "")) == 0 else text


def _exact(value) -> Decimal:
    return Decimal(value) if isinstance(value, int) else Decimal(repr(float(value)))


def _shortest_accepted(value) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    for digits in range(1, 18):
        text = f"{float(value):.{digits}g}"
        if "e" not in text and "." not in text:
            text += ".0"
        if Number(text).accepts(_exact(value)):
            return text
    return repr(float(value))


def three_significant(value: float) -> str:
    """A measured value at three significant digits, without an exponent for everyday sizes."""
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    exponent = math.floor(math.log10(abs(value)))
    if not -4 <= exponent < 9:
        return f"{value:.2e}"
    digits = 2 - exponent
    text = f"{round(value, digits):.{max(0, digits)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@dataclass(frozen=True)
class Token:
    """One token of output text: a number or a run of other non-space characters."""

    text: str
    line: int  # 0-based line within the text it came from
    number: Number | None = None
    column: int = 0  # where the token starts in its line


def tokenize(text: str) -> list[Token]:
    """Split output text into number tokens and text tokens; whitespace only separates.

    Trailing-dot numbers get their precision from their array (see the module docstring)."""
    return list(_tokenize(text))


@lru_cache(maxsize=4096)
def _tokenize(text: str) -> tuple[Token, ...]:
    """``tokenize``, remembered by the exact text (tokens are immutable, the text decides them all):
    a page checked again, or a snippet's output compared again, is not read again."""
    tokens: list[Token] = []
    for line_no, line in enumerate(split_lines(normalise(text))):
        pos = 0
        for match in NUMBER_RE.finditer(line):
            tokens.extend(_text_tokens(line[pos : match.start()], line_no, pos))
            tokens.append(Token(match.group(), line_no, Number(match.group()), match.start()))
            pos = match.end()
        tokens.extend(_text_tokens(line[pos:], line_no, pos))
    return tuple(apply_array_precision(tokens))


def apply_array_precision(tokens: list[Token]) -> list[Token]:
    """The trailing-dot rule: each ``1.`` takes the most decimals printed in its array."""
    groups: list[int | None] = []  # outermost bracket group of each token, None outside brackets
    depth, group = 0, -1
    for token in tokens:
        if token.number is None:
            for char in token.text:
                if char == "[":
                    depth += 1
                    if depth == 1:
                        group += 1
                elif char == "]" and depth:
                    depth -= 1
            # a token such as "[[" opens the group before the numbers that follow it
        groups.append(group if depth else None)
    widest: dict[int, int] = {}
    for token, g in zip(tokens, groups, strict=True):
        if g is not None and token.number is not None and not token.number.trailing_dot and "." in token.number.mantissa:
            widest[g] = max(widest.get(g, 0), token.number.mantissa_decimals())
    out = []
    for token, g in zip(tokens, groups, strict=True):
        if token.number is not None and token.number.trailing_dot:
            places = widest.get(g, NUMPY_PRECISION) if g is not None else NUMPY_PRECISION
            token = replace(token, number=Number(token.number.text, places))
        out.append(token)
    return out


def _text_tokens(chunk: str, line_no: int, offset: int) -> list[Token]:
    tokens, pos = [], 0
    for word in _SPACE.split(chunk):
        if word:
            at = chunk.index(word, pos)
            tokens.append(Token(word, line_no, None, offset + at))
            pos = at + len(word)
    return tokens


@dataclass(frozen=True)
class Drift:
    """Where documented output and computed output part ways."""

    line: int  # 0-based line in the documented text
    documented: str
    computed: str


def compare_tokens(doc: Token, got: Token) -> bool:
    """True if the computed token matches the documented one."""
    if doc.number is not None and got.number is not None:
        return doc.number.imaginary == got.number.imaginary and doc.number.accepts(got.number.text)
    return doc.number is None and got.number is None and doc.text == got.text


def compare_output(documented: str, computed: str) -> list[Drift]:
    """Every place the computed output drifts from the documented output.

    Numbers that drift are listed one by one. If the text around them differs (a missing row, a
    different word) the comparison stops there, with the two lines side by side.
    """
    return list(_compare_output(documented, computed))


@lru_cache(maxsize=4096)
def _compare_output(documented: str, computed: str) -> tuple[Drift, ...]:
    """``compare_output``, remembered by the exact pair of texts (the drifts are immutable)."""
    doc_tokens, got_tokens = tokenize(documented), tokenize(computed)
    doc_lines, got_lines = split_lines(normalise(documented)), split_lines(normalise(computed))
    drifts: list[Drift] = []
    for doc, got in zip(doc_tokens, got_tokens, strict=False):  # the longer one's rest: below
        if doc.number is not None and got.number is not None:
            if not compare_tokens(doc, got):
                drifts.append(Drift(doc.line, doc.text, got.text))
            continue
        if not compare_tokens(doc, got):
            drifts.append(Drift(doc.line, _line(doc_lines, doc.line), _line(got_lines, got.line)))
            return tuple(drifts)
    if len(doc_tokens) != len(got_tokens):
        if len(doc_tokens) > len(got_tokens):
            extra = doc_tokens[len(got_tokens)]
            drifts.append(Drift(extra.line, _line(doc_lines, extra.line), "(output ends here)"))
        else:
            extra = got_tokens[len(doc_tokens)]
            last = doc_tokens[-1].line if doc_tokens else 0
            drifts.append(Drift(last, "(documented output ends here)", _line(got_lines, extra.line)))
    return tuple(drifts)


def _line(lines: list[str], index: int) -> str:
    return lines[index].strip() if 0 <= index < len(lines) else ""
