"""A Python-Markdown extension: formulas become MathML while a page is converted, so no page loads a
math script from anywhere and any builder that runs Python-Markdown (MkDocs, ProperDocs, Zensical's
Markdown pipeline) gets the same formulas without a hook of its own.

``pymdownx.arithmatex`` in generic mode marks each formula (``$...$``, ``$$...$$``, ``\\(...\\)``,
``\\[...\\]``, ``\\begin{env}...``) as ``<span class="arithmatex">\\(...\\)</span>`` or ``<div
class="arithmatex">\\[...\\]</div>``; this extension's postprocessor turns each into MathML
(latex2mathml), which the browser renders natively. A formula latex2mathml cannot read raises
``FormulaError`` naming it, and the builder reports it with the page.

Two spacings latex2mathml leaves as browsers do not draw them are written as TeX means them:

- ``\\!`` (a negative thin space) comes out as ``<mspace width="negativethinmathspace">``: MathML
  Core (Chromium) knows no named widths and no negative ``mspace``, so it drew nothing. It becomes
  an ``mspace`` with a negative margin of 1/6 em, which Chromium applies;
- a named function (``\\log``, ``\\max`` and TeX's other operator names) is followed by a function
  application (U+2061, what MathML says such a name is), and spaced as TeX spaces an operator: a
  thin space (1/6 em) before it after an ordinary symbol, and after it before one, none next to a
  bracket or another operator. latex2mathml put nothing after ``\\log`` (``log p`` touched) and
  wrote ``\\max`` as an operator of unknown kind, which Chromium spaces by 5/18 em on both sides
  (``max (a, b)``). ``tests/gates/test_math.py`` measures both in Chromium.

    markdown_extensions:
      - pymdownx.arithmatex:
          generic: true
      - mathml            # this extension (entry point), or its module name: mdmathml
"""

from __future__ import annotations

import html
import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

# latex2mathml writes \mathrm{softmax} as one <mi> per letter; a screen reader would spell it.
_LETTERS = re.compile(r'(?:<mi mathvariant="normal">[A-Za-z]</mi>){2,}')
_LETTER = re.compile(r'<mi mathvariant="normal">([A-Za-z])</mi>')
MATH = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">(?:\\\((?P<inline>.+?)\\\)|\\\[(?P<block>.+?)\\\])</(?P=tag)>',
    re.DOTALL,
)
# latex2mathml passes a command it does not know through as text: <mi>\unknowncmd</mi>.
_UNKNOWN = re.compile(r">(\\[A-Za-z]+)<")


THIN_SPACE = '<mspace width="0.1667em" />'
NEGATIVE_THIN_SPACE = '<mspace style="margin-inline-start: -0.1667em" />'
FUNCTION_APPLICATION = "<mo>&#x2061;</mo>"
# TeX's operator names that latex2mathml writes as a single <mi> or <mo> of the name.
FUNCTIONS = frozenset(
    {
        "arg",
        "cos",
        "cosh",
        "det",
        "dim",
        "exp",
        "inf",
        "lg",
        "lim",
        "ln",
        "log",
        "max",
        "min",
        "sin",
        "sinh",
        "sup",
        "tan",
        "tanh",
    }
)
_TOKEN = re.compile(r"<[^>]+>|[^<]+")
_SCRIPTED = ("<msub>", "<msup>", "<msubsup>", "<munder>", "<mover>", "<munderover>")


class FormulaError(ValueError):
    """A formula that cannot become MathML."""


def _element_end(tokens: list[str], start: int) -> int:
    """The index of the token that closes the element opened at ``tokens[start]``."""
    if tokens[start].endswith("/>"):
        return start
    depth = 0
    for i in range(start, len(tokens)):
        token = tokens[i]
        if token.startswith("</"):
            depth -= 1
        elif token.startswith("<") and not token.endswith("/>"):
            depth += 1
        if depth == 0:
            return i
    raise ValueError("unbalanced MathML")


def _ordinary_before(tokens: list[str], start: int) -> bool:
    """Whether the sibling before ``tokens[start]`` is an ordinary symbol (not an operator, a space,
    or nothing: the start of a row)."""
    before = tokens[start - 1] if start else "<"
    return before.startswith("</") and before != "</mo>" and before != "</mtext>"


def _ordinary_after(tokens: list[str], end: int) -> bool:
    """Whether the sibling after ``tokens[end]`` is an ordinary symbol."""
    after = tokens[end + 1] if end + 1 < len(tokens) else "</"
    return not after.startswith(("</", "<mo", "<mspace", "<mtext"))


def space_functions(mathml: str) -> str:
    """``mathml`` with each named function followed by a function application, spaced as TeX does."""
    tokens = _TOKEN.findall(mathml)
    out, i = [], 0
    while i < len(tokens):
        named = (
            i + 2 < len(tokens)
            and tokens[i] in ("<mi>", "<mo>")
            and tokens[i + 1] in FUNCTIONS
            and tokens[i + 2] == f"</{tokens[i][1:]}"
        )
        if not named:
            out.append(tokens[i])
            i += 1
            continue
        name = ["<mi>", tokens[i + 1], "</mi>"]  # an identifier, as MathML writes a function's name
        scripted = bool(out) and out[-1] in _SCRIPTED  # \max_j: the name is the base of its script
        start = i - 1 if scripted else i
        end = _element_end(tokens, start)
        if _ordinary_before(tokens, start):
            out.insert(len(out) - 1 if scripted else len(out), THIN_SPACE)
        out += name + tokens[i + 3 : end + 1]
        if end + 1 < len(tokens) and not tokens[end + 1].startswith("</"):  # applied to what follows it
            out.append(FUNCTION_APPLICATION)
            if _ordinary_after(tokens, end):
                out.append(THIN_SPACE)
        i = end + 1
    return "".join(out)


def to_mathml(latex: str, display: str = "inline") -> str:
    """MathML for ``latex`` (plain text, not HTML-escaped); ``display``: "inline" or "block" (a
    block comes wrapped in ``<div class="math-block">``)."""
    from latex2mathml.converter import convert

    try:
        mathml = convert(latex, display=display)
    except Exception as exc:  # latex2mathml raises many types; report them all the same way
        raise FormulaError(f"cannot render the formula {latex!r}: {type(exc).__name__} {exc}".rstrip()) from exc
    unknown = _UNKNOWN.search(mathml)
    if unknown:
        raise FormulaError(f"cannot render the formula {latex!r}: unknown command {unknown[1]}")
    mathml = _LETTERS.sub(lambda m: '<mi mathvariant="normal">' + "".join(_LETTER.findall(m.group())) + "</mi>", mathml)
    mathml = mathml.replace('<mspace width="negativethinmathspace" />', NEGATIVE_THIN_SPACE)
    mathml = space_functions(mathml)
    return f'<div class="math-block">{mathml}</div>' if display == "block" else mathml


def replace_formulas(text: str) -> str:
    """``text`` (HTML) with every formula arithmatex marked replaced by its MathML."""

    def one(match: re.Match) -> str:
        inline = match["inline"] is not None
        latex = html.unescape(match["inline"] if inline else match["block"]).strip()
        return to_mathml(latex, "inline" if inline else "block")

    return MATH.sub(one, text)


class MathMLPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return replace_formulas(text)


class MathMLExtension(Extension):
    def extendMarkdown(self, md) -> None:  # noqa: N802 - Python-Markdown's name
        md.registerExtension(self)
        # After the raw HTML is put back (priority 30), so formulas inside md_in_html blocks are seen.
        md.postprocessors.register(MathMLPostprocessor(md), "mathml", 25)


def makeExtension(**kwargs) -> MathMLExtension:  # noqa: N802 - Python-Markdown's name
    return MathMLExtension(**kwargs)
