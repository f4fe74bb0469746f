"""The interactive figures in a real browser (Debian's Chromium), driven by mouse and keyboard only.

Every widget on the built site is found from its HTML. Each control is moved through its settings,
and what the widget shows (the DOM) is compared with an independent read of the data file the
build published (json here, not the widget's code). Axe-core clean in both palettes, no console
error or policy violation, no sideways scroll at 390 px; drawn again after instant navigation and
from the offline build (file://). Phone screenshots in test-artifacts/widgets/.
"""

from __future__ import annotations

import json
import re

import pytest
from browsertour import DESKTOP, PHONE, PageWatch, blocking_axe_findings, phone_context, watch_csp
from sitekit import ARTIFACTS, AXE_JS, TEST_SITE_URL

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "widgets"
WIDGET = re.compile(r'<div class="widget" data-widget="(?P<name>[^"]+)" data-src="(?P<src>[^"]+)"')
EXPECTED = {"temperature", "attention", "positions", "kv-cache"}


def _fixed(value: float, digits: int) -> str:
    """A number as JavaScript's toFixed writes it (no minus sign on a zero)."""
    text = f"{value:.{digits}f}"
    return text[1:] if re.fullmatch(r"-0\.?0*", text) else text


@pytest.fixture(scope="module")
def widgets(site):
    """name -> (page path, data read from the published file)."""
    found = {}
    for path in site.pages:
        for match in WIDGET.finditer(site.html(path) if path.strip("/") else ""):
            data = json.loads((site.dir / match["src"]).read_text(encoding="utf-8"))
            found[match["name"]] = (path, match["src"], data)
    assert EXPECTED <= set(found), f"widgets missing from the site: {sorted(EXPECTED - set(found))}"
    return found


def _open(context, url: str, name: str):
    page = context.new_page()
    watch = PageWatch(page)
    page.goto(url, wait_until="networkidle")
    widget = page.locator(f'div.widget[data-widget="{name}"][data-ready]')
    widget.wait_for(timeout=10_000)
    widget.scroll_into_view_if_needed()
    return page, watch, widget


def _status(widget) -> str:
    return widget.locator(".widget-status").inner_text()


# -- one driver per widget: moves every control, compares what is shown with the data ------------
def _drive_temperature(page, widget, data):
    slider, box = widget.locator('input[type="range"]'), widget.locator('input[type="checkbox"]')
    for kind in ("unscaled", "scaled"):
        if kind == "scaled":
            widget.locator(".widget-control label", has_text="Divide").click()  # the mouse, on the label
            assert box.is_checked()
        slider.focus()
        page.keyboard.press("Home")
        for i, d_k in enumerate(data["d_k"]):
            row, top = data["weights"][kind][i], data["top"][kind][i]
            assert widget.locator("svg text.widget-value").all_text_contents() == [_fixed(w, 3) for w in row]
            status = _status(widget)
            assert status.startswith(f"d_k = {d_k}, ") and f"{_fixed(row[top], 3)}, is on key {top + 1} of" in status
            assert slider.get_attribute("aria-valuetext") == f"d_k = {d_k}"
            page.keyboard.press("ArrowRight")
    box.focus()
    page.keyboard.press("Space")
    assert not box.is_checked()
    slider.click(position={"x": 2, "y": 5})  # the mouse, at the slider's left end: the first width
    first = data["weights"]["unscaled"][0]
    assert widget.locator("svg text.widget-value").all_text_contents() == [_fixed(w, 3) for w in first]


def _drive_attention(page, widget, data):
    sequence, kind = widget.locator("select").nth(0), widget.locator("select").nth(1)
    kinds = ("encoder", "decoder", "cross")
    for k, name in enumerate(kinds):
        for s in range(len(data["source"])):
            queries = data["source"][s] if name == "encoder" else data["target"][s]
            for q, token in enumerate(queries):
                button = widget.locator(f'button[data-query="{q}"]')
                assert button.inner_text() == token
                if q % 2:
                    button.hover()  # the mouse
                else:
                    page.mouse.move(0, 0)  # away: no pointer over the buttons the keyboard picks among
                    button.focus()  # the keyboard
                assert widget.locator(f'button[data-query="{q}"]').get_attribute("aria-pressed") == "true"
                for head in range(data["heads"]):
                    shown = widget.locator(f'[data-head="{head}"] .widget-value').all_text_contents()
                    assert shown == [_fixed(w, 2) for w in data["maps"][name][s][head][q]], (name, s, head, q)
                assert f"query {token} at position {q};" in _status(widget)
            if s + 1 < len(data["source"]):
                sequence.focus()
                page.keyboard.press("ArrowDown")
                assert sequence.input_value() == str(s + 1)
        sequence.focus()
        page.keyboard.press("Home")
        assert sequence.input_value() == "0"
        if k + 1 < len(kinds):
            kind.focus()
            page.keyboard.press("ArrowDown")
            assert kind.input_value() == str(k + 1)


def _drive_positions(page, widget, data):
    slider = widget.locator('input[type="range"]')
    slider.focus()
    page.keyboard.press("Home")
    for k, offset in enumerate(data["offsets"]):
        texts = widget.locator("svg text").all_text_contents()
        assert f"PE(0) \u00b7 PE(k) = {_fixed(data['dot'][k], 3)}" in texts
        angles = [_fixed(a, 1) + "\u00b0" for a in data["angle"][k]]
        assert widget.locator("svg text.widget-value").all_text_contents() == angles
        assert _status(widget).startswith(f"Offset k = {offset}: ")
        page.keyboard.press("ArrowRight")
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the mouse, at the right end
    angles = [_fixed(a, 1) + "\u00b0" for a in data["angle"][-1]]
    assert widget.locator("svg text.widget-value").all_text_contents() == angles


def _drive_kv_cache(page, widget, data):
    shape = widget.locator("select")
    shape.focus()
    page.keyboard.press("Home")
    for m, model in enumerate(data["models"]):
        assert shape.input_value() == str(m)
        context, groups = widget.locator('input[type="range"]').nth(0), widget.locator('input[type="range"]').nth(1)
        context.focus()
        page.keyboard.press("Home")
        for c, n in enumerate(data["contexts"]):
            groups.focus()
            page.keyboard.press("Home")
            for g, heads in enumerate(model["groups"]):
                shown = model["shown"][g][c]
                assert widget.locator("svg text.widget-start").text_content() == shown
                assert f"{heads} key/value heads, {n} tokens: {shown} " in _status(widget)
                assert _status(widget).startswith(model["name"] + " ")
                page.keyboard.press("ArrowRight")
            context.focus()
            page.keyboard.press("ArrowRight")
        shape.focus()
        page.keyboard.press("ArrowDown")


DRIVERS = {
    "temperature": _drive_temperature,
    "attention": _drive_attention,
    "positions": _drive_positions,
    "kv-cache": _drive_kv_cache,
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_setting_shows_the_values_of_the_data_file(browser, server, widgets, name):
    path, _, data = widgets[name]
    context = browser.new_context(viewport=DESKTOP, color_scheme="light", reduced_motion="reduce")
    watch_csp(context)
    if AXE_JS.is_file():
        context.add_init_script(path=str(AXE_JS))
    try:
        page, watch, widget = _open(context, server.url + path, name)
        assert widget.get_attribute("aria-label"), "the widget has no accessible name"
        assert widget.locator(".widget-status").get_attribute("aria-live") == "polite"
        for control in widget.locator("input, select").all():
            assert control.evaluate("(c) => c.labels.length") == 1, "a control without its label"
        DRIVERS[name](page, widget, data)
        if AXE_JS.is_file():
            assert blocking_axe_findings(page) == []
            page.locator('form[data-md-component="palette"] label:not([hidden])').first.click()
            page.wait_for_function(
                "() => document.body.getAttribute('data-md-color-scheme') === 'slate'", timeout=5_000
            )
            assert blocking_axe_findings(page) == []
        watch.clean()
    finally:
        context.close()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_on_a_phone_the_widget_fits_and_answers_a_tap(browser, server, widgets, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = widgets[name][0]
    context = phone_context(browser)
    watch_csp(context)
    try:
        page, watch, widget = _open(context, server.url + path, name)
        before = _status(widget)
        control = widget.locator("button.widget-token, input").last
        control.scroll_into_view_if_needed()
        control.tap()
        assert _status(widget) != before, "a tap changed nothing"
        box = widget.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1, "the page scrolls sideways"
        widget.screenshot(path=str(SHOTS / f"{name}-phone.png"))
        watch.clean()
    finally:
        context.close()


def test_instant_navigation_draws_the_widgets_of_the_new_page(browser, server, widgets):
    path = widgets["temperature"][0]
    context = browser.new_context(viewport=DESKTOP, color_scheme="light", reduced_motion="reduce")
    watch_csp(context)

    def sitemap_here(route) -> None:
        """The sitemap with the test server's addresses: Material navigates instantly only to a
        page the sitemap lists (test_browser.py does the same)."""
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace(TEST_SITE_URL, server.url))

    context.route("**/sitemap.xml", sitemap_here)
    try:
        page = context.new_page()
        watch = PageWatch(page)
        page.goto(server.url, wait_until="networkidle")
        page.evaluate("window.__samePage = true")
        page.locator(f'.md-sidebar--primary a[href$="{path}"]').first.click()
        page.wait_for_url(re.compile(re.escape(path) + "$"), timeout=10_000)
        page.locator('div.widget[data-widget="temperature"][data-ready]').wait_for(timeout=10_000)
        assert page.evaluate("window.__samePage === true"), "the link loaded a whole page, not an instant one"
        assert page.locator("div.widget[data-ready] .widget-status").first.inner_text().startswith("d_k = ")
        watch.clean()
    finally:
        context.close()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_offline_build_draws_the_widget_from_disk(browser, offline_build, widgets, name):
    if not offline_build.ok:
        pytest.fail(f"the offline build failed:\n{offline_build.log[-6000:]}", pytrace=False)
    path, src, data = widgets[name]
    file = offline_build.site_dir / (path.strip("/") + ".html")
    assert json.loads((offline_build.site_dir / src).read_text(encoding="utf-8")) == data
    context = browser.new_context(viewport=DESKTOP, color_scheme="light", reduced_motion="reduce")
    try:
        page, watch, widget = _open(context, file.as_uri(), name)
        assert page.url.startswith("file://")
        assert _status(widget), "the widget states nothing"
        widget.locator("input, select").first.focus()
        page.keyboard.press("End")
        if name == "temperature":
            last = [_fixed(w, 3) for w in data["weights"]["unscaled"][-1]]
            assert widget.locator("svg text.widget-value").all_text_contents() == last
        assert watch.errors == []
    finally:
        context.close()
