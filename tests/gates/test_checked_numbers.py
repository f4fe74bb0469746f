"""Checked numbers in a real browser (Debian's Chromium): quiet until asked.

A checked number reads as a number (no underline, the text's own colour). Hovering it with a mouse,
focusing it from the keyboard, or tapping it shows what computed it and links to its row on the
verification page; the link's accessible description says the same. The header's button
highlights every checked number on the page and is remembered. All of it without a console error
or a Content-Security-Policy violation, with axe-core clean while the box is open and the numbers
highlighted, in both palettes and at phone width. Screenshots in test-artifacts/checked-numbers/.
"""

from __future__ import annotations

import re

import pytest
from browsertour import DESKTOP, PageWatch, blocking_axe_findings, phone_context, watch_csp
from sitekit import ARTIFACTS, AXE_JS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "checked-numbers"
NUMBER = "article a.checked-number:not(.range-number):visible"
TIP = ".tie-tip"
BUTTON = "header .ties-toggle"

# How a number is drawn, against the paragraph around it.
STYLE_JS = """(a) => { const s = getComputedStyle(a), p = getComputedStyle(a.parentElement);
  return {line: s.textDecorationLine, color: s.color, parentColor: p.color, background: s.backgroundColor,
          outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth)}; }"""
TIP_JS = """() => { const t = document.querySelector(".tie-tip"); if (!t || t.hidden) return null;
  const r = t.getBoundingClientRect(), row = t.querySelector("a");
  return {text: t.firstChild.textContent, row: row.href, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth}; }"""
DESCRIPTION_JS = """(a) => { const ids = (a.getAttribute("aria-describedby") || "").split(/\\s+/).filter(Boolean);
  const texts = ids.map((id) => (document.getElementById(id) || {}).textContent);
  return {title: a.getAttribute("title"), description: texts.join(" ")}; }"""


def _page_with_numbers(site) -> str:
    for candidate in ["02-one-head-by-hand/", *site.pages]:
        if candidate in site.pages and candidate.strip("/") and 'class="checked-number"' in site.html(candidate):
            return candidate
    pytest.skip("no page has a checked number yet")


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport=DESKTOP, color_scheme="light", reduced_motion="reduce")
    watch_csp(context)
    if AXE_JS.is_file():
        context.add_init_script(path=str(AXE_JS))
    try:
        yield context
    finally:
        context.close()


def test_a_checked_number_is_quiet_and_says_on_hover_and_focus_what_computed_it(desktop, server, site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = _page_with_numbers(site)
    page = desktop.new_page()
    watch = PageWatch(page)
    page.goto(server.url + path, wait_until="networkidle")
    number = page.locator(NUMBER).first
    number.scroll_into_view_if_needed()
    style = number.evaluate(STYLE_JS)
    assert style["line"] == "none", f"a checked number is underlined ({style['line']}) before any hover"
    assert style["color"] == style["parentColor"], style
    assert page.evaluate(TIP_JS) is None, "the box shows before anything asked for it"

    described = number.evaluate(DESCRIPTION_JS)
    assert described["title"] is None, "the native title would show a second tooltip under the box"
    assert re.fullmatch(
        r"computed by snippets/\S+\.py: .+; checked (at the printed precision|exactly)", described["description"]
    ), described
    href = number.evaluate("(a) => a.href")
    assert "/verification/#check-" in href

    number.hover()
    tip = page.evaluate(TIP_JS)
    assert tip is not None, "hovering a checked number shows nothing"
    assert tip["text"] == described["description"] and tip["row"] == href, tip
    page.screenshot(path=str(SHOTS / "hover-light.png"))
    page.mouse.move(2, 400)
    page.wait_for_timeout(600)  # the box lingers a moment, so the pointer can reach its link
    assert page.evaluate(TIP_JS) is None, "the box stays after the pointer left"

    page.keyboard.press("Shift")  # the last input is the keyboard: focus is drawn (:focus-visible)
    number.focus()
    tip = page.evaluate(TIP_JS)
    assert tip is not None and tip["text"] == described["description"], "focusing a checked number shows nothing"
    focused = number.evaluate(STYLE_JS)
    assert focused["outline"] != "none" and focused["outlineWidth"] >= 1, f"no visible focus: {focused}"
    page.screenshot(path=str(SHOTS / "focus-light.png"))
    if AXE_JS.is_file():
        assert blocking_axe_findings(page) == []
    page.keyboard.press("Escape")
    assert page.evaluate(TIP_JS) is None, "Escape does not dismiss the box"

    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/verification/#check-"), timeout=10_000)
    anchor = href.split("#", 1)[1]
    assert page.locator(f"#{anchor}").count() == 1, f"the verification page has no row {anchor}"
    watch.clean()


def test_the_header_button_highlights_every_checked_number_and_is_remembered(desktop, server, site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = _page_with_numbers(site)
    page = desktop.new_page()
    watch = PageWatch(page)
    page.goto(server.url + path, wait_until="networkidle")
    button = page.locator(BUTTON)
    assert button.is_visible(), "no highlight button in the header"
    assert button.get_attribute("aria-label") == "Highlight checked numbers"
    assert button.get_attribute("aria-pressed") == "false"
    number = page.locator(NUMBER).first
    quiet = number.evaluate(STYLE_JS)

    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    every = page.evaluate("""() => Array.from(document.querySelectorAll("article a.checked-number")).map((a) => {
        const s = getComputedStyle(a); return [s.backgroundColor, s.textDecorationLine]; })""")
    assert every and all(bg != "rgba(0, 0, 0, 0)" and "underline" in line for bg, line in every), every
    assert number.evaluate(STYLE_JS)["background"] != quiet["background"]
    page.screenshot(path=str(SHOTS / "highlighted-light.png"))
    if AXE_JS.is_file():
        assert blocking_axe_findings(page) == []

    page.reload(wait_until="networkidle")
    assert page.locator(BUTTON).get_attribute("aria-pressed") == "true", "the highlight is not remembered"
    page.locator('form[data-md-component="palette"] label:not([hidden])').first.click()
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'", timeout=5_000)
    page.locator(NUMBER).first.hover()
    assert page.evaluate(TIP_JS) is not None
    page.screenshot(path=str(SHOTS / "highlighted-hover-dark.png"))
    if AXE_JS.is_file():
        assert blocking_axe_findings(page) == []

    page.locator(BUTTON).click()
    assert page.locator(BUTTON).get_attribute("aria-pressed") == "false"
    assert page.locator(NUMBER).first.evaluate(STYLE_JS)["line"] == "none"
    page.reload(wait_until="networkidle")
    assert page.locator(BUTTON).get_attribute("aria-pressed") == "false"
    watch.clean()


def test_on_a_phone_a_tap_shows_what_computed_a_number_and_a_second_tap_opens_its_row(browser, server, site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = _page_with_numbers(site)
    context = phone_context(browser)
    watch_csp(context)
    try:
        page = context.new_page()
        watch = PageWatch(page)
        page.goto(server.url + path, wait_until="networkidle")
        assert page.locator(BUTTON).is_visible(), "no highlight button in the phone's header"
        number = page.locator(NUMBER).last
        number.scroll_into_view_if_needed()
        number.tap()
        tip = page.evaluate(TIP_JS)
        assert tip is not None, "a tap on a checked number shows nothing"
        assert page.url.endswith(path), "the first tap left the page"
        assert tip["left"] >= 0 and tip["right"] <= tip["width"], f"the box leaves a {tip['width']} px screen: {tip}"
        assert tip["scroll"] <= tip["width"] + 1, "the box makes the page scroll sideways"
        page.screenshot(path=str(SHOTS / "tap-phone.png"))
        page.locator("article h1").tap()
        assert page.evaluate(TIP_JS) is None, "a tap elsewhere does not close the box"
        number.tap()
        number.tap()
        page.wait_for_url(re.compile(r"/verification/#check-"), timeout=10_000)
        watch.clean()
    finally:
        context.close()
