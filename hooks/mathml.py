"""MkDocs hook: formulas become MathML on the server, so no page loads a math script from anywhere.

pymdownx.arithmatex (generic mode) marks the formulas; this hook swaps each for MathML that the
browser renders natively. A formula that latex2mathml cannot read fails the build with its page.
"""

from __future__ import annotations

import html
import re

from latex2mathml.converter import convert
from mkdocs.exceptions import PluginError

# latex2mathml writes \mathrm{softmax} as one <mi> per letter; a screen reader would spell it.
_LETTERS = re.compile(r'(?:<mi mathvariant="normal">[A-Za-z]</mi>){2,}')
_LETTER = re.compile(r'<mi mathvariant="normal">([A-Za-z])</mi>')
_MATH = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">(?:\\\((?P<inline>.+?)\\\)|\\\[(?P<block>.+?)\\\])</(?P=tag)>',
    re.DOTALL,
)


def to_mathml(match: re.Match, page_uri: str) -> str:
    latex = html.unescape(match["inline"] if match["inline"] is not None else match["block"]).strip()
    display = "inline" if match["inline"] is not None else "block"
    try:
        mathml = convert(latex, display=display)
    except Exception as exc:  # latex2mathml raises many types; report them all the same way
        raise PluginError(f"docs/{page_uri}: cannot render the formula {latex!r}: {exc}") from exc
    mathml = _LETTERS.sub(lambda m: '<mi mathvariant="normal">' + "".join(_LETTER.findall(m.group())) + "</mi>", mathml)
    if display == "block":
        return f'<div class="math-block">{mathml}</div>'
    return mathml


def on_page_content(html_text: str, page, config, files) -> str:
    return _MATH.sub(lambda m: to_mathml(m, page.file.src_uri), html_text)
