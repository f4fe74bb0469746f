"""A Python-Markdown extension: formulas become MathML while a page is converted, so no page loads a
math script from anywhere and any builder that runs Python-Markdown (MkDocs, ProperDocs, Zensical's
Markdown pipeline) gets the same formulas without a hook of its own.

``pymdownx.arithmatex`` in generic mode marks each formula (``$...$``, ``$$...$$``, ``\\(...\\)``,
``\\[...\\]``, ``\\begin{env}...``) as ``<span class="arithmatex">\\(...\\)</span>`` or ``<div
class="arithmatex">\\[...\\]</div>``; this extension's postprocessor turns each into MathML
(latex2mathml), which the browser renders natively. A formula latex2mathml cannot read raises
``FormulaError`` naming it, and the builder reports it with the page.

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


class FormulaError(ValueError):
    """A formula that cannot become MathML."""


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
