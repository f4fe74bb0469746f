"""Math: the site's own OpenType math font draws every formula, and formulas are laid out as written.

A reader's machine may have no math font at all (then MathML falls back to a text font: missing
letters, a summation sign that stays text-sized). The site serves Noto Sans Math
(docs/assets/fonts/SOURCE.txt) first in its math font stack, so what a reader sees does not depend
on their fonts. Checked in Debian's Chromium:

- on every page with a formula, every character of every formula is drawn with the site's font
  (Chromium's own record of the fonts it used, over the DevTools protocol), never a system font;
- probe formulas made by hooks/mathml.py, on a page of the built site (its stylesheets): brackets
  made by ``\\left( ... \\right)`` around a fraction are at least 1.5 times the font size tall; a
  display sum with limits is taller than the same sum in running text, with its limits above and
  below it; the brace of ``cases`` spans its rows; the cells of ``cases`` and of an ``array`` are
  aligned as their columns say (left, right);
- the same probes without the site's stylesheet (the site before it had the font and the alignment
  rules) fail, so the checks can fail;
- on the real pages, every stretchy bracket that encloses a fraction is 1.5 times the font size
  tall, and every aligned table cell is where its column says.

Chromium 156 stretches brackets even without a math font (the sum and the letters are what such a
machine gets wrong); the bracket checks guard the site's CSS and font against breaking them.
"""

from __future__ import annotations

import re
import struct
import sys

import pytest
from sitekit import NODE_MODULES, ROOT

sys.path.insert(0, str(ROOT / "hooks"))
from mathml import _MATH, to_mathml  # noqa: E402 - the build's own converter

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FONT_FAMILY = "Noto Sans Math"
FONT_FILE = ROOT / "docs" / "assets" / "fonts" / "noto-sans-math-latin-400-normal.woff2"
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

# Measured in the page: boxes of operators, cell contents and the limits of the display sum.
MEASURE_JS = """(ids) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height}; };
  const content = (td) => { const r = document.createRange(); r.selectNodeContents(td); return box(r); };
  const out = {};
  for (const id of ids) {
    const math = document.querySelector("#" + id + " math");
    const fontSize = parseFloat(getComputedStyle(math).fontSize);
    const fences = Array.from(math.querySelectorAll('mo[fence="true"][stretchy="true"]')).map((mo) => ({text: mo.textContent, ...box(mo)}));
    const sums = Array.from(math.querySelectorAll("mo")).filter((mo) => mo.textContent === "\\u2211").map((mo) => {
      const parent = mo.parentElement;
      const limits = parent.tagName.toLowerCase() === "munderover" ? [parent.children[1], parent.children[2]].map(box) : null;
      return {...box(mo), limits};
    });
    const cells = Array.from(math.querySelectorAll("mtd")).map((td) => ({align: td.getAttribute("columnalign"),
      column: Array.from(td.parentElement.children).indexOf(td), table: Array.from(math.querySelectorAll("mtable")).indexOf(td.closest("mtable")),
      ...content(td)}));
    const tables = Array.from(math.querySelectorAll("mtable")).map(box);
    out[id] = {fontSize, fences, sums, cells, tables, tokens: math.querySelectorAll("mi, mn, mo, mtext").length};
  }
  return out;
}"""


def probe_html() -> str:
    """The probe formulas as the build renders them (display), plus the sum inline in a sentence."""
    parts = []
    for name, latex in PROBES.items():
        block = _MATH.sub(lambda m: to_mathml(m, "probe"), f'<div class="arithmatex">\\[{latex}\\]</div>')
        parts.append(f'<div id="probe-{name}">{block}</div>')
    inline = _MATH.sub(lambda m: to_mathml(m, "probe"), f'<span class="arithmatex">\\({INLINE_SUM}\\)</span>')
    parts.append(f'<p id="probe-inline-sum">A sum in running text, {inline}, stays small.</p>')
    return "".join(parts)


def layout_problems(measured: dict, ids: list[str]) -> list[str]:
    """What is wrong with the layout of the formulas ``ids`` (see the module docstring)."""
    problems = []
    for where in ids:
        m = measured[where]
        em = m["fontSize"]
        for fence in m["fences"]:
            if fence["height"] < BRACKET_MIN_EM * em:
                problems.append(f"{where}: the bracket {fence['text']!r} around a fraction is {fence['height'] / em:.2f} "
                                f"times the font size tall (at least {BRACKET_MIN_EM})")
        problems += alignment_problems(where, m)
    return problems


def alignment_problems(where: str, m: dict) -> list[str]:
    problems = []
    columns: dict[tuple[int, int], list[dict]] = {}
    for cell in m["cells"]:
        if cell["align"] in ("left", "right"):
            columns.setdefault((cell["table"], cell["column"]), []).append(cell)
    for (table, column), cells in sorted(columns.items()):
        for align in {c["align"] for c in cells}:
            edges = [c[align] for c in cells if c["align"] == align]
            if max(edges) - min(edges) > ALIGN_TOLERANCE_PX:
                problems.append(f"{where}: table {table}, column {column} is written {align}-aligned, but its cells' "
                                f"{align} edges are {', '.join(f'{e:.1f}' for e in edges)} px")
    return problems


def sum_problems(measured: dict) -> list[str]:
    display, inline = measured["probe-display-sum"], measured["probe-inline-sum"]
    problems = []
    big, small = display["sums"][0], inline["sums"][0]
    if big["height"] < DISPLAY_SUM_MIN_RATIO * small["height"]:
        problems.append(f"the display sum is {big['height']:.1f} px tall, the same sum in running text "
                        f"{small['height']:.1f} px (at least {DISPLAY_SUM_MIN_RATIO} times that)")
    upper, lower = big["limits"][1], big["limits"][0]
    if not (upper["bottom"] <= big["top"] + 1 and lower["top"] >= big["bottom"] - 1):
        problems.append("the display sum's limits are not above and below it")
    cases = measured["probe-cases"]
    brace = next(f for f in cases["fences"] if f["text"] == "{")
    if brace["height"] < 0.9 * cases["tables"][0]["height"]:
        problems.append(f"the brace of cases is {brace['height']:.1f} px tall for rows {cases['tables'][0]['height']:.1f} px tall")
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
        ids = [f"probe-{name}" for name in PROBES] + ["probe-inline-sum"]
        return page.evaluate(MEASURE_JS, ids)
    finally:
        context.close()


def test_probe_formulas_are_laid_out_as_written(browser, server):
    measured = _probe(browser, server, block_stylesheet=False)
    problems = layout_problems(measured, [f"probe-{name}" for name in PROBES]) + sum_problems(measured)
    assert problems == [], "\n".join(problems)
    fraction = measured["probe-fraction"]
    print(f"\nbrackets around a fraction: {fraction['fences'][0]['height'] / fraction['fontSize']:.2f} em; display sum "
          f"{measured['probe-display-sum']['sums'][0]['height']:.0f} px vs {measured['probe-inline-sum']['sums'][0]['height']:.0f} px "
          "in running text; cases and array cells aligned as written")


def test_without_the_sites_stylesheet_the_probes_fail(browser, server):
    """The site as it was before its math rules: Chromium centres every cell, so the checks fail."""
    measured = _probe(browser, server, block_stylesheet=True)
    problems = layout_problems(measured, [f"probe-{name}" for name in PROBES])
    assert any("cases" in p and "left-aligned" in p for p in problems), problems
    assert any("array" in p and "right-aligned" in p for p in problems), problems


def _pages_with_math(site) -> list[str]:
    return [page for page in site.pages if "<math" in site.html(page)]


# Per formula token: what decides the glyphs drawn (a single-letter <mi> is drawn in italic, another
# code point) and the characters; a token whose characters were all checked in that form is skipped.
TOKENS_JS = """() => Array.from(document.querySelectorAll("article math :is(mi, mn, mo, mtext)")).map((e) => ({
  form: e.tagName.toLowerCase() + "|" + (e.getAttribute("mathvariant") || "") + "|" + (e.tagName.toLowerCase() === "mi" && [...e.textContent].length === 1),
  text: e.textContent}))"""


@pytest.fixture(scope="module")
def real_formulas(browser, server, site) -> dict:
    """Every page with a formula, visited once: which fonts drew its formulas' characters
    (Chromium's record, over the DevTools protocol), and the layout of every formula."""
    record = {"pages": [], "fonts": [], "layout": [], "tokens": 0, "fences": 0, "cells": 0}
    for page_path in _pages_with_math(site):
        where = page_path or "/"
        record["pages"].append(where)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(server.url + page_path, wait_until="load")
            page.evaluate("document.fonts.ready.then(() => true)")
            loaded = page.evaluate("""(family) => Array.from(document.fonts).filter((f) => f.family.replace(/"/g, "") === family)
                                                   .map((f) => f.status)""", FONT_FAMILY)
            if loaded != ["loaded"]:
                record["fonts"].append(f"{where}: the font {FONT_FAMILY!r} is {loaded or 'not declared'}")
                continue
            cdp = context.new_cdp_session(page)
            cdp.send("DOM.enable")
            cdp.send("CSS.enable")
            root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
            nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "article math :is(mi, mn, mo, mtext)"})["nodeIds"]
            tokens = page.evaluate(TOKENS_JS)
            assert len(tokens) == len(nodes)
            checked: set[tuple[str, str]] = set()
            for node, token in zip(nodes, tokens):
                keys = {(token["form"], ch) for ch in token["text"] if not ch.isspace()}
                if keys <= checked:
                    continue
                checked |= keys
                record["tokens"] += 1
                fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
                others = [f"{f['familyName']} ({f['glyphCount']} glyphs)" for f in fonts
                          if not (f["isCustomFont"] and f["familyName"] == FONT_FAMILY)]
                if others:
                    record["fonts"].append(f"{where}: {token['text']!r} ({token['form']}) is drawn with {', '.join(others)}")

            count = page.evaluate("""() => { let i = 0; for (const m of document.querySelectorAll("article math")) {
                const holder = document.createElement("span"); holder.id = "formula-" + (i++);
                m.parentNode.insertBefore(holder, m); holder.appendChild(m); } return i; }""")
            ids = [f"formula-{i}" for i in range(count)]
            measured = page.evaluate(MEASURE_JS, ids)
            visible = page.evaluate("(ids) => ids.filter((id) => document.getElementById(id).checkVisibility())", ids)
            fences = page.evaluate("""(ids) => Object.fromEntries(ids.map((id) => [id,
                Array.from(document.querySelectorAll("#" + id + ' mo[fence="true"][stretchy="true"]'))
                  .filter((mo) => mo.parentElement.querySelector("mfrac"))
                  .map((mo) => ({text: mo.textContent, height: mo.getBoundingClientRect().height}))]))""", visible)
            for where_id in visible:
                m = measured[where_id]
                m["fences"] = fences[where_id]
                record["fences"] += len(m["fences"])
                record["cells"] += sum(1 for c in m["cells"] if c["align"] in ("left", "right"))
                record["layout"] += [f"{where} {p}" for p in layout_problems(measured, [where_id])]
        finally:
            context.close()
    return record


def test_every_formula_on_the_site_is_drawn_with_the_sites_math_font(real_formulas):
    """Every character of every formula, on every page with one, comes from the site's web font."""
    assert real_formulas["pages"], "no page shows a formula"
    failures = real_formulas["fonts"]
    assert failures == [], f"{len(failures)} formula characters not drawn with the site's font:\n" + "\n".join(failures[:40])
    print(f"\n{real_formulas['tokens']} formula tokens (one per new character and form) on {len(real_formulas['pages'])} "
          f"pages, all drawn with {FONT_FAMILY} (the site's copy)")


def test_the_real_formulas_stretch_and_align(real_formulas):
    """On the real pages: brackets around fractions stretch, aligned cells line up."""
    assert real_formulas["layout"] == [], "\n".join(real_formulas["layout"])
    print(f"\n{real_formulas['fences']} brackets around fractions at least {BRACKET_MIN_EM} em tall; "
          f"{real_formulas['cells']} aligned cells where their column says")


def test_the_font_is_the_packages_file_with_its_licence():
    """The committed font is the npm package's file, byte for byte, and its licence is served beside it."""
    packaged = FONT_PACKAGE / "files" / FONT_FILE.name
    assert packaged.is_file(), f"{packaged} is missing: run `make browser` (npm ci in tests/gates) first"
    assert FONT_FILE.read_bytes() == packaged.read_bytes(), f"{FONT_FILE} differs from {packaged}"
    licence = FONT_FILE.with_name("noto-sans-math-OFL.txt")
    assert licence.read_bytes() == (FONT_PACKAGE / "LICENSE").read_bytes()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence.read_text(encoding="utf-8")
    css = (ROOT / "docs" / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    stack = re.search(r"\.md-typeset math\s*\{\s*font-family:\s*([^;]+);", css)
    assert stack and stack[1].split(",")[0].strip().strip('"') == FONT_FAMILY, "the site's font is not first in the math stack"
    assert f'url("../assets/fonts/{FONT_FILE.name}")' in css


def woff2_table_tags(data: bytes) -> list[str]:
    """The table tags of a WOFF2 file, read from its table directory (no decompression needed)."""
    from fontTools.ttLib.woff2 import woff2KnownTags

    assert data[:4] == b"wOF2", "not a WOFF2 file"
    (num_tables,) = struct.unpack(">H", data[12:14])
    offset, tags = 48, []  # the table directory follows the 48-byte header
    for _ in range(num_tables):
        flags = data[offset]
        offset += 1
        if flags & 0x3F == 0x3F:  # a tag that is not in the known list follows
            tag = data[offset: offset + 4].decode("latin-1")
            offset += 4
        else:
            tag = woff2KnownTags[flags & 0x3F]
        version = flags >> 6
        transformed = version == 0 if tag in ("glyf", "loca") else version != 0
        for _field in range(2 if transformed else 1):  # origLength, then transformLength if transformed
            while data[offset] & 0x80:  # UIntBase128: 7 bits a byte, high bit set on all but the last
                offset += 1
            offset += 1
        tags.append(tag)
    return tags


def test_the_sites_font_has_an_opentype_math_table():
    """Only a font with a MATH table stretches MathML operators the way the font designs them."""
    tags = woff2_table_tags(FONT_FILE.read_bytes())
    assert {"cmap", "glyf", "head"} <= set(tags), f"the table directory reads wrong: {tags}"
    assert "MATH" in tags, f"the font's tables are {tags}: no MATH table"
