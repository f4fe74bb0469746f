"""toolchain/mdmathml.py, the site's Markdown extension: formulas become MathML."""

from __future__ import annotations

import re

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


def _body(latex: str) -> str:
    """The MathML inside ``<mrow>`` of an inline formula, as the site writes it."""
    from mdmathml import to_mathml

    return re.fullmatch(r"<math [^>]*><mrow>(.*)</mrow></math>", to_mathml(latex))[1]


FA, THIN = "<mo>&#x2061;</mo>", '<mspace width="0.1667em" />'


@pytest.mark.parametrize(
    "latex, expected",
    [
        # TeX spaces an operator name by a thin space from an ordinary symbol on either side, by none
        # from a bracket or another operator; MathML marks it applied with U+2061.
        ("\\log p", f"<mi>log</mi>{FA}{THIN}<mi>p</mi>"),
        ("r \\log r", f"<mi>r</mi>{THIN}<mi>log</mi>{FA}{THIN}<mi>r</mi>"),
        ("-\\log p", f"<mo>&#x02212;</mo><mi>log</mi>{FA}{THIN}<mi>p</mi>"),
        (
            "\\log(x)",
            f'<mi>log</mi>{FA}<mo stretchy="false">&#x00028;</mo><mi>x</mi><mo stretchy="false">&#x00029;</mo>',
        ),
        (
            "\\max(a)",
            f'<mi>max</mi>{FA}<mo stretchy="false">&#x00028;</mo><mi>a</mi><mo stretchy="false">&#x00029;</mo>',
        ),
        ("\\max_j s", f"<msub><mi>max</mi><mi>j</mi></msub>{FA}{THIN}<mi>s</mi>"),
        ("a = \\min b", f"<mi>a</mi><mo>&#x0003D;</mo><mi>min</mi>{FA}{THIN}<mi>b</mi>"),
        ("a\\,\\log b", f'<mi>a</mi><mspace width="0.167em" /><mi>log</mi>{FA}{THIN}<mi>b</mi>'),
        ("\\log", "<mi>log</mi>"),  # applied to nothing
        (
            "\\mathrm{softmax}(x)",
            '<mrow><mi mathvariant="normal">softmax</mi></mrow><mo stretchy="false">&#x00028;</mo>'
            '<mi>x</mi><mo stretchy="false">&#x00029;</mo>',
        ),  # not one of TeX's names
    ],
)
def test_named_functions_are_applied_and_spaced_as_tex_spaces_them(latex, expected):
    assert _body(latex) == expected


def test_a_negative_thin_space_is_a_margin_chromium_applies():
    body = _body("a\\!b")
    assert body == '<mi>a</mi><mspace style="margin-inline-start: -0.1667em" /><mi>b</mi>'
    assert "negativethinmathspace" not in _markdown("$$\\mathrm{softmax}\\!\\left(\\frac{a}{b}\\right)$$")
