"""toolchain/mdmathml.py, the site's Markdown extension: formulas become MathML."""

from __future__ import annotations

import pytest


def _markdown(text: str) -> str:
    """``text`` converted as the site converts it: arithmatex marks formulas, the mathml extension
    (by its entry point name, as mkdocs.yml names it) turns them into MathML."""
    import markdown

    return markdown.markdown(
        text,
        extensions=["pymdownx.arithmatex", "mathml", "md_in_html", "tables"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )


def test_inline_and_display_formulas_become_mathml():
    out = _markdown("A head of width $d_k$:\n\n$$\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$$\n")
    assert "arithmatex" not in out and "\\(" not in out and "\\frac" not in out and "$" not in out
    assert out.count("<math") == 2
    assert 'display="block"' in out and "<msqrt>" in out and "<msub>" in out and '<div class="math-block">' in out


def test_upright_words_stay_whole_words():
    assert '<mi mathvariant="normal">softmax</mi>' in _markdown("$\\mathrm{softmax}(x)$")


def test_html_escapes_in_formulas_are_undone_before_conversion():
    out = _markdown("$a < b$")
    assert "<mo>&#x0003C;</mo>" in out and "&amp;lt;" not in out


def test_formulas_in_tables_and_html_blocks_become_mathml():
    out = _markdown('| n | cost |\n|---|---|\n| 1 | $n^2$ |\n\n<div markdown="1">\n\n$\\sqrt{d_k}$\n\n</div>\n')
    assert out.count("<math") == 2 and "arithmatex" not in out


@pytest.mark.parametrize(
    "latex, why",
    [
        ("\\left( a", "ExtraLeftOrMissingRightError"),
        ("a^", "MissingSuperScriptOrSubscriptError"),
        ("\\begin{cases} a", "MissingEndError"),
        ("\\softmaxx(x)", "unknown command \\softmaxx"),
    ],
)
def test_a_formula_that_cannot_be_read_fails_with_the_formula(latex, why):
    from mdmathml import FormulaError

    with pytest.raises(FormulaError) as error:
        _markdown(f"Before ${latex}$ after.")
    assert str(error.value).startswith(f"cannot render the formula {latex!r}: {why}")
