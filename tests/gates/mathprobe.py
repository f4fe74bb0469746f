"""What a browser made of the formulas on a page: which fonts drew them, and where their parts are.

Used by the tour (browsertour.py records every page with a formula once) and by test_math.py (which
judges the record, and measures probe formulas of its own).
"""

from __future__ import annotations

FONT_FAMILY = "Noto Sans Math"  # the site's math font (docs/stylesheets/extra.css)

# For each formula matched by a selector: its font size, its stretchy brackets (and whether they
# enclose a fraction), its sums (with the boxes of their limits), its table cells (the box of their
# content) and its tables.
MEASURE_JS = """(selector) => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height};
  };
  const content = (td) => { const r = document.createRange(); r.selectNodeContents(td); return box(r); };
  return Array.from(document.querySelectorAll(selector)).map((math) => {
    const tables = Array.from(math.querySelectorAll("mtable"));
    return {
      fontSize: parseFloat(getComputedStyle(math).fontSize),
      visible: math.checkVisibility(),
      fences: Array.from(math.querySelectorAll('mo[fence="true"][stretchy="true"]')).map((mo) => ({
        text: mo.textContent, aroundFraction: !!mo.parentElement.querySelector("mfrac"), ...box(mo)})),
      sums: Array.from(math.querySelectorAll("mo")).filter((mo) => mo.textContent === "\\u2211").map((mo) => {
        const parent = mo.parentElement;
        const limits = parent.tagName.toLowerCase() === "munderover"
                       ? [parent.children[1], parent.children[2]].map(box) : null;
        return {...box(mo), limits};
      }),
      cells: Array.from(math.querySelectorAll("mtd")).map((td) => ({align: td.getAttribute("columnalign"),
        column: Array.from(td.parentElement.children).indexOf(td), table: tables.indexOf(td.closest("mtable")),
        ...content(td)})),
      tables: tables.map(box),
    };
  });
}"""

# Per formula token: what decides the glyphs drawn (a single-letter <mi> is drawn in italic, another
# code point) and its characters.
TOKENS_SELECTOR = "article math :is(mi, mn, mo, mtext)"
TOKENS_JS = """(selector) => Array.from(document.querySelectorAll(selector)).map((e) => ({
  form: e.tagName.toLowerCase() + "|" + (e.getAttribute("mathvariant") || "") + "|"
        + (e.tagName.toLowerCase() === "mi" && [...e.textContent].length === 1),
  text: e.textContent, visible: e.checkVisibility()}))"""
# Collapsed blocks (the interview answers) hold formulas too: opened while the formulas are recorded.
OPEN_DETAILS_JS = """() => { const closed = Array.from(document.querySelectorAll("article details:not([open])"));
  closed.forEach((d) => { d.open = true; d.dataset.openedForMath = ""; }); return closed.length; }"""
CLOSE_DETAILS_JS = """() => document.querySelectorAll("article details[data-opened-for-math]").forEach((d) => {
  d.open = false; delete d.dataset.openedForMath; })"""


def record_formulas(context, page) -> dict | None:
    """The formulas of ``page`` (already loaded), collapsed blocks opened meanwhile, or None if it has none:
    ``fonts`` (the web font's status), ``drawn`` (per token whose characters were not seen before in
    that form: its text, form and the fonts Chromium drew it with, from the DevTools protocol) and
    ``formulas`` (MEASURE_JS over every formula of the article)."""
    if not page.locator("article math").count():
        return None
    page.evaluate("document.fonts.ready.then(() => true)")
    fonts = page.evaluate(
        """(family) => Array.from(document.fonts).filter((f) => f.family.replace(/"/g, "") === family)
                                         .map((f) => f.status)""",
        FONT_FAMILY,
    )
    page.evaluate(OPEN_DETAILS_JS)
    cdp = context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": TOKENS_SELECTOR})["nodeIds"]
        tokens = page.evaluate(TOKENS_JS, TOKENS_SELECTOR)
        if len(tokens) != len(nodes):
            raise AssertionError(f"{len(tokens)} formula tokens in the page, {len(nodes)} over the DevTools protocol")
        drawn, seen = [], set()
        for node, token in zip(nodes, tokens, strict=True):
            if not token["visible"]:  # not laid out (a hidden tab): no font draws it
                continue
            keys = {(token["form"], ch) for ch in token["text"] if not ch.isspace()}
            if keys <= seen:
                continue
            seen |= keys
            used = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            drawn.append({**token, "fonts": [(f["familyName"], f["isCustomFont"], f["glyphCount"]) for f in used]})
        formulas = page.evaluate(MEASURE_JS, "article math")
    finally:
        cdp.detach()
        page.evaluate(CLOSE_DETAILS_JS)
    return {"fonts": fonts, "drawn": drawn, "formulas": formulas}
