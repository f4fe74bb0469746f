"""Math: the site's own OpenType math font draws every formula, and formulas are laid out as written.

A reader's machine may have no math font at all (then MathML falls back to a text font: missing
letters, a summation sign that stays text-sized). The site serves Noto Sans Math
(docs/assets/fonts/SOURCE.txt) first in its math font stack, so what a reader sees does not depend
on their fonts. Checked in Debian's Chromium:

- on every page with a formula, every character of every formula is drawn with the site's font
  (Chromium's own record of the fonts it used, over the DevTools protocol), never a system font;
- probe formulas made by the build's Markdown extension (toolchain/mdmathml.py), on a page of the
  built site (its stylesheets): brackets made by ``\\left( ... \\right)`` around a fraction are at
  least 1.5 times the font size tall; a display sum with limits is taller than the same sum in
  running text, with its limits above and below it; the brace of ``cases`` spans its rows; the
  cells of ``cases`` and of an ``array`` are aligned as their columns say (left, right);
- the same probes without the site's stylesheet (the site before it had the font and the alignment
  rules) fail, so the checks can fail;
- on the real pages, every stretchy bracket that encloses a fraction is 1.5 times the font size
  tall, and every aligned table cell is where its column says;
- spacing as TeX means it, measured between the drawn glyphs: ``\\log p`` and ``\\max_j s`` have a
  thin space (1/6 em) after the name, ``\\max(`` none before its bracket, ``a\\!b`` pulls b 1/6 em
  towards a; latex2mathml's own output, measured the same way, is off (no space after ``log``, 5/18
  em before the bracket, no negative space), so the check can fail.

Chromium 156 stretches brackets even without a math font (the sum and the letters are what such a
machine gets wrong); the bracket checks guard the site's CSS and font against breaking them.
"""

from __future__ import annotations

import re
import sys

import pytest
from mathprobe import FONT_FAMILY, MEASURE_JS
from mdmathml import replace_formulas  # the build's own converter
from sitekit import NODE_MODULES, ROOT

sys.path.insert(0, str(ROOT / "hooks"))

pytestmark = [pytest.mark.browser, pytest.mark.slow]

import mathfont  # noqa: E402 - the build's font cutter

FONT_FILE = ROOT / "docs" / mathfont.SOURCE
FONT_PACKAGE = NODE_MODULES / "@fontsource" / "noto-sans-math"
PROBES = {
    "fraction": r"\left( \frac{a}{b} \right)",
    "display-sum": r"\sum_{i=1}^{n} x_i",
    "cases": r"f(x) = \begin{cases} 1 & x > 0 \\ -1 & \text{otherwise} \end{cases}",
    "array": r"\begin{array}{rl} ab & c \\ d & efg \end{array}",
}
INLINE_SUM = r"\sum_{i=1}^{n} x_i"
BRACKET_MIN_EM = 1.5
DISPLAY_SUM_MIN_RATIO = 1.25  # a display sum's height over the same sum's height in running text
ALIGN_TOLERANCE_PX = 1.0


def probe_html() -> str:
    """The probe formulas as the build renders them (display), plus the sum inline in a sentence."""
    parts = []
    for name, latex in PROBES.items():
        block = replace_formulas(f'<div class="arithmatex">\\[{latex}\\]</div>')
        parts.append(f'<div id="probe-{name}">{block}</div>')
    inline = replace_formulas(f'<span class="arithmatex">\\({INLINE_SUM}\\)</span>')
    parts.append(f'<p id="probe-inline-sum">A sum in running text, {inline}, stays small.</p>')
    return "".join(parts)


def layout_problems(where: str, m: dict) -> list[str]:
    """What is wrong with the layout of one measured formula (mathprobe.MEASURE_JS)."""
    problems = []
    em = m["fontSize"]
    for fence in m["fences"]:
        if fence["aroundFraction"] and fence["height"] < BRACKET_MIN_EM * em:
            problems.append(
                f"{where}: the bracket {fence['text']!r} around a fraction is {fence['height'] / em:.2f} "
                f"times the font size tall (at least {BRACKET_MIN_EM})"
            )
    columns: dict[tuple[int, int], list[dict]] = {}
    for cell in m["cells"]:
        if cell["align"] in ("left", "right"):
            columns.setdefault((cell["table"], cell["column"]), []).append(cell)
    for (table, column), cells in sorted(columns.items()):
        for align in sorted({c["align"] for c in cells}):
            edges = [c[align] for c in cells if c["align"] == align]
            if max(edges) - min(edges) > ALIGN_TOLERANCE_PX:
                problems.append(
                    f"{where}: table {table}, column {column} is written {align}-aligned, but its cells' "
                    f"{align} edges are at {', '.join(f'{e:.1f}' for e in edges)} px"
                )
    return problems


def sum_and_brace_problems(measured: dict) -> list[str]:
    problems = []
    big, small = measured["display-sum"]["sums"][0], measured["inline-sum"]["sums"][0]
    if big["height"] < DISPLAY_SUM_MIN_RATIO * small["height"]:
        problems.append(
            f"the display sum is {big['height']:.1f} px tall, the same sum in running text "
            f"{small['height']:.1f} px (at least {DISPLAY_SUM_MIN_RATIO} times that)"
        )
    lower, upper = big["limits"]
    if not (upper["bottom"] <= big["top"] + 1 and lower["top"] >= big["bottom"] - 1):
        problems.append("the display sum's limits are not above and below it")
    cases = measured["cases"]
    brace = next(f for f in cases["fences"] if f["text"] == "{")
    if brace["height"] < 0.9 * cases["tables"][0]["height"]:
        problems.append(
            f"the brace of cases is {brace['height']:.1f} px tall for rows {cases['tables'][0]['height']:.1f} px tall"
        )
    return problems


def _probe(browser, server, block_stylesheet: bool) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        if block_stylesheet:
            context.route(re.compile(r".*/stylesheets/extra\.css$"), lambda route: route.abort())
        page = context.new_page()
        page.goto(server.url, wait_until="load")
        page.evaluate("(html) => { document.querySelector('article').innerHTML = html; }", probe_html())
        page.evaluate("document.fonts.ready.then(() => true)")
        names = [*PROBES, "inline-sum"]
        return {name: page.evaluate(MEASURE_JS, f"#probe-{name} math")[0] for name in names}
    finally:
        context.close()


def test_probe_formulas_are_laid_out_as_written(browser, server):
    measured = _probe(browser, server, block_stylesheet=False)
    problems = [p for name in PROBES for p in layout_problems(name, measured[name])] + sum_and_brace_problems(measured)
    assert problems == [], "\n".join(problems)
    fraction = measured["fraction"]
    print(
        f"\nbrackets around a fraction: {fraction['fences'][0]['height'] / fraction['fontSize']:.2f} em; display sum "
        f"{measured['display-sum']['sums'][0]['height']:.0f} px "
        f"vs {measured['inline-sum']['sums'][0]['height']:.0f} px "
        "in running text; cases and array cells aligned as written"
    )


def test_without_the_sites_stylesheet_the_probes_fail(browser, server):
    """The site as it was before its math rules: Chromium centres every cell, so the checks fail."""
    measured = _probe(browser, server, block_stylesheet=True)
    problems = [p for name in PROBES for p in layout_problems(name, measured[name])]
    assert any(p.startswith("cases") and "left-aligned" in p for p in problems), problems
    assert any(p.startswith("array") and "right-aligned" in p for p in problems), problems


# (formula, the token before the gap, the token after it, the gap TeX gives, in em).
SPACINGS = [
    (r"\log p", "log", "p", 1 / 6),
    (r"r \log r", "r", "log", 1 / 6),
    (r"\max(a, b)", "max", "(", 0.0),
    (r"\max_j s", "j", "s", 1 / 6 + 0.05),  # and TeX's \scriptspace (0.5 pt) after a subscript
    (r"\mathrm{softmax}\!\left(\frac{a}{b}\right)", "softmax", "(", -1 / 6),
    (r"a\!b", "a", "b", -1 / 6),
]
SPACING_TOLERANCE_EM = 0.04

# The gap (in em of the formula's font size) between the first token whose text is `left` and the
# first token after it whose text is `right`.
GAP_JS = """([left, right]) => {
  const math = document.querySelector("#spacing-probe math");
  const tokens = Array.from(math.querySelectorAll("mi, mn, mo")).filter((e) => e.textContent.trim());
  const a = tokens.findIndex((e) => e.textContent === left);
  const b = tokens.findIndex((e, i) => i > a && e.textContent === right);
  if (a < 0 || b < 0) return null;
  const range = (e) => { const r = document.createRange(); r.selectNodeContents(e); return r.getBoundingClientRect(); };
  return (range(tokens[b]).left - range(tokens[a]).right) / parseFloat(getComputedStyle(math).fontSize);
}"""


def _gaps(browser, server, render) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.url, wait_until="load")
        gaps = {}
        for latex, left, right, _ in SPACINGS:
            page.evaluate(
                "(html) => { document.querySelector('article').innerHTML = "
                "'<p id=\"spacing-probe\">' + html + '</p>'; }",
                render(latex),
            )
            page.evaluate("document.fonts.ready.then(() => true)")
            gaps[latex] = page.evaluate(GAP_JS, [left, right])
        return gaps
    finally:
        context.close()


def test_function_names_and_negative_thin_spaces_are_spaced_as_tex_spaces_them(browser, server):
    from latex2mathml.converter import convert

    site = _gaps(browser, server, lambda latex: replace_formulas(f'<span class="arithmatex">\\({latex}\\)</span>'))
    raw = _gaps(browser, server, convert)
    problems = [
        f"{latex!r}: {site[latex] if site[latex] is None else round(site[latex], 3)} em between {left!r} "
        f"and {right!r}, TeX gives {tex:.3f}"
        for latex, left, right, tex in SPACINGS
        if site[latex] is None or abs(site[latex] - tex) > SPACING_TOLERANCE_EM
    ]
    assert problems == [], "\n".join(problems)
    off = {
        latex
        for latex, _, _, tex in SPACINGS
        if raw[latex] is not None and abs(raw[latex] - tex) > SPACING_TOLERANCE_EM
    }
    assert off >= {r"\log p", r"\max(a, b)", r"a\!b"}, f"latex2mathml alone is right already: {raw}"
    alone = {latex: "no such tokens" if raw[latex] is None else f"{raw[latex]:+.3f} em" for latex in raw}
    print(
        "\n"
        + "; ".join(f"{latex}: {site[latex]:+.3f} em (latex2mathml alone: {alone[latex]})" for latex, *_ in SPACINGS)
    )


def _math_pages(tour) -> list:
    pages = [v for v in tour.visits if v.formulas]
    assert pages, "no page shows a formula"
    return pages


def test_every_formula_on_the_site_is_drawn_with_the_sites_math_font(tour):
    """Chromium's own record of the fonts it drew each formula token with (once per new character
    and form): every one is the site's web font, on every page with a formula."""
    failures, tokens = [], 0
    for visit in _math_pages(tour):
        where = visit.page or "/"
        if visit.formulas["fonts"] != ["loaded"]:
            failures.append(f"{where}: the font {FONT_FAMILY!r} is {visit.formulas['fonts'] or 'not declared'}")
        for token in visit.formulas["drawn"]:
            tokens += 1
            others = [
                f"{family} ({glyphs} glyphs)"
                for family, custom, glyphs in token["fonts"]
                if not (custom and family == FONT_FAMILY)
            ]
            if others or not token["fonts"]:
                failures.append(
                    f"{where}: {token['text']!r} ({token['form']}) is drawn with {', '.join(others) or 'nothing'}"
                )
    assert failures == [], f"{len(failures)} formula characters not drawn with the site's font:\n" + "\n".join(
        failures[:40]
    )
    print(
        f"\n{tokens} formula tokens (one per new character and form) on {len(_math_pages(tour))} pages, "
        f"all drawn with {FONT_FAMILY} (the site's copy)"
    )


def test_the_real_formulas_stretch_and_align(tour):
    """On the real pages: brackets around fractions stretch, aligned cells line up."""
    problems, fences, cells = [], 0, 0
    for visit in _math_pages(tour):
        for i, formula in enumerate(visit.formulas["formulas"]):
            if not formula["visible"]:
                continue
            fences += sum(1 for f in formula["fences"] if f["aroundFraction"])
            cells += sum(1 for c in formula["cells"] if c["align"] in ("left", "right"))
            problems += layout_problems(f"{visit.page or '/'} formula {i}", formula)
    assert problems == [], "\n".join(problems)
    assert fences > 0, "no bracket around a fraction on the whole site: the check checks nothing"
    print(
        f"\n{fences} brackets around fractions at least {BRACKET_MIN_EM} em tall; "
        f"{cells} aligned cells where their column says"
    )


def test_the_font_is_the_packages_file_with_its_licence():
    """The committed font is the npm package's file, byte for byte, and its licence is served."""
    packaged = FONT_PACKAGE / "files" / FONT_FILE.name
    assert packaged.is_file(), f"{packaged} is missing: run `make browser` (npm ci in tests/gates) first"
    assert FONT_FILE.read_bytes() == packaged.read_bytes(), f"{FONT_FILE} differs from {packaged}"
    licence = FONT_FILE.with_name("noto-sans-math-OFL.txt")
    assert licence.read_bytes() == (FONT_PACKAGE / "LICENSE").read_bytes()
    text = licence.read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in text
    assert "with Reserved Font Name" not in text, "a reserved name would forbid serving a cut-down copy under it"
    css = (ROOT / "docs" / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    stack = re.search(r"\.md-typeset math\s*\{\s*font-family:\s*([^;]+);", css)
    assert stack and stack[1].split(",")[0].strip().strip('"') == FONT_FAMILY, (
        "the site's font is not first in the math stack"
    )
    assert f'url("../{mathfont.OUTPUT}")' in css


def test_the_served_font_covers_every_formula_and_keeps_its_math_table(site):
    """The cut-down font the site serves: a MATH table, every character of every formula (and their
    italic forms), a fraction of the whole font's size; the whole font is not published."""
    from fontTools.ttLib import TTFont

    served = site.dir / mathfont.OUTPUT
    assert not (site.dir / mathfont.SOURCE).exists(), "the whole source font is published too"
    font = TTFont(str(served))
    whole = TTFont(str(FONT_FILE))
    assert "MATH" in font and "MATH" in whole
    used = set()
    for html_file in site.html_files():
        used |= mathfont.math_characters(html_file.read_text(encoding="utf-8"))
    used = {ch for ch in used if not ch.isspace()}
    needed = used | mathfont.styled_forms(used)
    cmap, whole_cmap = font.getBestCmap(), whole.getBestCmap()
    missing = sorted(ch for ch in needed if ord(ch) in whole_cmap and ord(ch) not in cmap)
    assert missing == [], f"characters of the formulas missing from the served font: {missing}"
    assert "\U0001d465" in needed and "∑" in used, (
        "the site's formulas have no italic x or sum: the check checks little"
    )
    size, whole_size = served.stat().st_size, FONT_FILE.stat().st_size
    assert size < whole_size / 4, f"the served font is {size:,} bytes of the whole {whole_size:,}"
    print(
        f"\nserved math font: {size:,} bytes ({len(font.getGlyphOrder())} glyphs) for {len(used)} characters; "
        f"the whole font {whole_size:,} bytes ({len(whole.getGlyphOrder())} glyphs)"
    )


def test_the_styled_forms_of_letters_and_letter_like_symbols():
    """What Chromium draws for a one-letter <mi>: its italic form, another code point (h and the
    lunate epsilon have theirs outside the plain pattern)."""
    forms = mathfont.styled_forms({"h", "x", "Q", "α", "ϵ", "∂", "1", "+"})
    assert {
        "\u210e",
        "\U0001d465",
        "\U0001d444",
        "\U0001d6fc",
        "\U0001d716",
        "\U0001d715",  # italic
        "\U0001d421",
        "\U0001d489",
    } <= forms  # bold h, bold italic h
    assert not forms & {"1", "+"}
