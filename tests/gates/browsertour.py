"""One visit of every page in headless Chromium, recording what a reader's browser does.

Each page is opened in a fresh browser context (so a palette stored by one page cannot leak into
the next): at desktop width in the light palette, then switched to the dark palette with the
header toggle, then at phone width. Screenshots: the whole page in the light palette, the first
screen in the dark palette and on the phone (on the phone, the whole page's width is measured
instead: no page may scroll sideways). Everything is recorded once and the tests in
test_browser.py and test_a11y.py assert on the record, so the site is driven only once per
session.
"""

from __future__ import annotations

import queue
import re
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from mathprobe import record_formulas
from sitekit import ARTIFACTS, AXE_JS, CHROMIUM, CHROMIUM_ARGS, Site

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = ARTIFACTS / "screenshots"
NAVIGATION_TIMEOUT_MS = 30_000
LOCAL_SCHEMES = ("data:", "blob:", "about:")

# Every image on the page, forced to load and decoded; what the browser made of each.
IMAGES_JS = """async () => Promise.all(Array.from(document.images).map(async (img) => {
  img.loading = "eager";
  let error = null;
  try { await img.decode(); } catch (e) { error = String(e); }
  return {src: img.getAttribute("src"), url: img.currentSrc || img.src, width: img.naturalWidth,
          height: img.naturalHeight, alt: img.getAttribute("alt"), error};
}))"""

# The page's prose: text outside code, formulas and scripts (inside collapsed blocks too, since a
# reader opens them). Raw LaTeX in here means a formula was not converted.
PROSE_JS = """() => {
  const root = document.querySelector("article") || document.body;
  const skip = "pre, code, kbd, samp, math, script, style, textarea, .clipboard-copy-txt";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT,
    {acceptNode: (n) => n.parentElement && n.parentElement.closest(skip)
                        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  const parts = [];
  while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
  return parts.join("");
}"""

# Formulas: how many, whether each visible one has a size (is laid out as MathML), any error node.
MATH_JS = """() => Array.from(document.querySelectorAll("article math")).map((m) => {
  const box = m.getBoundingClientRect();
  return {label: m.getAttribute("aria-label") || m.textContent.slice(0, 60), visible: m.checkVisibility(),
          width: box.width, height: box.height, display: getComputedStyle(m).display,
          errors: m.querySelectorAll("merror").length};
})"""

# Code blocks Material handles (pre > code) and whether each has its copy button.
CODE_JS = """() => Array.from(document.querySelectorAll("article pre > code")).map((code) => {
  const pre = code.parentElement;
  const copy = pre.querySelector('button[data-md-type="copy"], button.md-clipboard')
            || (pre.parentElement && pre.parentElement.querySelector(':scope > button.md-clipboard'));
  return {id: pre.id || "", text: code.textContent.slice(0, 60), copy: !!copy, title: copy ? copy.title : ""};
})"""

# Figures a snippet drew: the background the page gives them, in the current palette.
FIGURES_JS = """() => Array.from(document.querySelectorAll('article img[src*="figures/"]')).map((img) => {
  const style = getComputedStyle(img);
  return {src: img.getAttribute("src"), background: style.backgroundColor, opacity: style.opacity};
})"""

# Every Content-Security-Policy violation the browser reports (the page's policy refusing a
# script, style, image, font or connection), from before the page's own scripts run.
CSP_LISTENER_JS = """(() => { window.__cspViolations = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(e.effectiveDirective
    + " refused " + (e.blockedURI || "inline") + " (" + (e.sourceFile || "") + ":" + e.lineNumber + ")"));
})()"""
CSP_RECORD_JS = "() => window.__cspViolations || []"

AXE_RUN_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 240),
                                 summary: (n.failureSummary || "").slice(0, 400)}))}));
}"""

# In the dark palette axe runs the rules that depend on colours; every rule runs in the light one.
PALETTE_RULES = '["color-contrast", "link-in-text-block"]'

OVERFLOW_JS = """() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  wide: Array.from(document.querySelectorAll("article *")).filter((e) => {
    const r = e.getBoundingClientRect();
    return r.right > document.documentElement.clientWidth + 1 && e.checkVisibility()
           && !e.closest("pre, .md-typeset__table, .md-typeset__scrollwrap, .math-block, .highlight, "
                         + ".jp-OutputArea, .jp-InputArea, .tabbed-labels");
  }).slice(0, 5).map((e) => e.tagName.toLowerCase()
    + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "")),
  clipped_code: Array.from(document.querySelectorAll("article pre > code"))
    .filter((c) => c.checkVisibility() && c.scrollWidth > c.clientWidth + 1)
    .map((c) => (c.closest(".highlight")?.querySelector(".filename")?.textContent || "a code block")
      + ": " + c.scrollWidth + " px of lines in " + c.clientWidth + " px").slice(0, 5)})"""


@dataclass
class Visit:
    """What happened while one page was shown."""

    page: str
    url: str
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)
    images: list[dict] = field(default_factory=list)
    prose: str = ""
    math: list[dict] = field(default_factory=list)
    code: list[dict] = field(default_factory=list)
    scheme_before: str = ""
    scheme_after: str = ""
    figures_dark: list[dict] = field(default_factory=list)
    axe: dict[str, list[dict]] = field(default_factory=dict)  # palette -> violations
    phone_overflow: dict = field(default_factory=dict)
    screenshots: list[Path] = field(default_factory=list)
    notebook_links: list[str] = field(default_factory=list)
    formulas: dict | None = None  # mathprobe.record_formulas: fonts used and layout, if the page has any


@dataclass
class Tour:
    host: str
    visits: list[Visit]
    axe_available: bool


def screenshot_name(page: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", page.strip("/")) or "index"


class _Recorder:
    """Every request a context makes, and every one that failed or was refused."""

    def __init__(self, context, host: str, visit: Visit) -> None:
        self.host, self.visit = host, visit
        context.on("request", self._request)
        context.on("requestfailed", lambda r: visit.failed.append(f"{r.url} ({r.failure})"))
        context.on("response", self._response)
        context.route("**/*", self._route)
        watch_csp(context)

    def _local(self, url: str) -> bool:
        return url.startswith(LOCAL_SCHEMES) or urlsplit(url).netloc == self.host

    def _request(self, request) -> None:
        self.visit.requests.append(request.url)

    def _response(self, response) -> None:
        if response.status >= 400:
            self.visit.failed.append(f"{response.url} (HTTP {response.status})")

    def _route(self, route) -> None:
        if self._local(route.request.url):
            route.continue_()
        else:  # never let a test reach another host; the request is still recorded and reported
            route.abort("blockedbyclient")


def watch_csp(context) -> None:
    """Record every policy violation in the pages ``context`` opens (read with ``csp_violations``)."""
    context.add_init_script(CSP_LISTENER_JS)


def csp_violations(page) -> list[str]:
    """The policy violations the browser reported in ``page`` so far, and the console's own CSP messages."""
    return list(page.evaluate(CSP_RECORD_JS))


# The axe findings a page must not have: the impacts that block a reader.
BLOCKING = {"serious", "critical"}


class PageWatch:
    """Console errors and policy violations of one page, asserted away by ``clean``."""

    def __init__(self, page) -> None:
        self.page, self.errors = page, []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def clean(self) -> None:
        assert self.errors == [], self.errors
        assert csp_violations(self.page) == []


def blocking_axe_findings(page) -> list[str]:
    """axe-core's serious and critical findings on ``page`` (axe injected already), one line each."""
    found = page.evaluate(AXE_RUN_JS)
    return [
        f"{v['impact']} {v['id']}: {n['target']} {n['summary']}"
        for v in found
        if v["impact"] in BLOCKING
        for n in v["nodes"]
    ]


def phone_context(browser):
    """A new browser context as a phone shows a page: 390 px wide, touch, light palette, no motion."""
    return browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=1,
        color_scheme="light",
        reduced_motion="reduce",
    )


def _watch_console(page, visit: Visit, palette: str) -> None:
    page.on(
        "console",
        lambda m: (
            visit.console_errors.append(
                f"[{palette}] {m.text} ({m.location.get('url', '')}:{m.location.get('lineNumber', '')})"
            )
            if m.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda e: visit.console_errors.append(f"[{palette}] uncaught: {e}"))
    page.on(
        "console",
        lambda m: (
            visit.csp_violations.append(f"[{palette}] console: {m.text}")
            if "Content Security Policy" in m.text
            else None
        ),
    )


def _open(context, url: str, visit: Visit, palette: str, *, idle: bool = True):
    """Open the page; with ``idle``, also wait until the network has been quiet for half a second
    (the search worker fetches its index after the load event), so every request is recorded."""
    page = context.new_page()
    _watch_console(page, visit, palette)
    page.goto(url, wait_until="load", timeout=NAVIGATION_TIMEOUT_MS)
    if idle:
        page.wait_for_load_state("networkidle", timeout=NAVIGATION_TIMEOUT_MS)
    page.evaluate("document.fonts.ready.then(() => true)")
    return page


def _axe(page) -> list[dict]:
    """axe-core's violations; axe was put on the page by an init script (``visit_page``), which runs
    whatever the page's policy says: a script tag added here would be refused by it."""
    return page.evaluate(AXE_RUN_JS)


def _switch_palette(page) -> None:
    """Click the palette toggle a reader sees in the header."""
    page.locator('form[data-md-component="palette"] label:not([hidden])').first.click()


def visit_page(browser, base_url: str, host: str, page_path: str, axe: bool) -> Visit:
    url = base_url + page_path
    visit = Visit(page_path, url)
    name = screenshot_name(page_path)
    context = browser.new_context(viewport=DESKTOP, color_scheme="light", reduced_motion="reduce")
    try:
        _Recorder(context, host, visit)
        if axe:
            context.add_init_script(path=str(AXE_JS))
        page = _open(context, url, visit, "light")
        visit.images = page.evaluate(IMAGES_JS)
        visit.prose = page.evaluate(PROSE_JS)
        visit.math = page.evaluate(MATH_JS)
        visit.code = page.evaluate(CODE_JS)
        visit.notebook_links = page.evaluate(
            """() => Array.from(document.querySelectorAll('a[href$=".ipynb"]')).map((a) => a.href)"""
        )
        visit.formulas = record_formulas(context, page)
        visit.scheme_before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        if axe:
            visit.axe["light"] = _axe(page)
        path = SCREENSHOTS / f"{name}-desktop.png"
        page.screenshot(path=str(path), full_page=True)
        visit.screenshots.append(path)

        _switch_palette(page)
        page.wait_for_function(
            "(before) => document.body.getAttribute('data-md-color-scheme') !== before",
            arg=visit.scheme_before,
            timeout=5_000,
        )
        visit.scheme_after = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        visit.figures_dark = page.evaluate(FIGURES_JS)
        if axe:  # the rules a palette can change; axe is already on the page
            visit.axe["dark"] = page.evaluate(
                AXE_RUN_JS.replace("{resultTypes", f"{{runOnly: {PALETTE_RULES}, resultTypes")
            )
        path = SCREENSHOTS / f"{name}-desktop-dark.png"
        page.screenshot(path=str(path))  # the first screen: the full page is in the light screenshot
        visit.screenshots.append(path)
        visit.csp_violations += [f"[desktop] {v}" for v in csp_violations(page)]
    finally:
        context.close()

    context = phone_context(browser)
    try:
        _Recorder(context, host, visit)
        page = _open(context, url, visit, "phone", idle=False)
        visit.phone_overflow = page.evaluate(OVERFLOW_JS)
        visit.csp_violations += [f"[phone] {v}" for v in csp_violations(page)]
        path = SCREENSHOTS / f"{name}-phone.png"
        page.screenshot(path=str(path))  # the first screen: the whole page's width is checked above
        visit.screenshots.append(path)
    finally:
        context.close()
    return visit


def tour(base_url: str, host: str, site: Site, workers: int = 2) -> Tour:
    """Visit every page; ``workers`` browsers side by side (each in its own thread, with its own
    Playwright: the sync API is per thread), since a visit spends much of its time waiting."""
    from playwright.sync_api import sync_playwright

    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True)
    axe = AXE_JS.is_file()
    todo = queue.Queue()
    for index, page in enumerate(site.pages):
        todo.put((index, page))
    visits: dict[int, Visit] = {}
    errors: list[BaseException] = []

    def work() -> None:
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                try:
                    while not errors:
                        try:
                            index, page = todo.get_nowait()
                        except queue.Empty:
                            return
                        visits[index] = visit_page(browser, base_url, host, page, axe)
                finally:
                    browser.close()
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which raises it
            errors.append(exc)

    threads = [threading.Thread(target=work, name=f"tour-{i}") for i in range(max(1, min(workers, len(site.pages))))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return Tour(host, [visits[i] for i in sorted(visits)], axe)
