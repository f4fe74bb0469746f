"""Page weights of a built site: what a reader's browser downloads to show a page the first time.

    python scripts/page_weight.py SITE_DIR [PAGE ...]

Prints the bytes of the whole built folder (and without ``downloads/``), then, for each page (by
default the home page, two section pages, the verification page and one notebook page), the size of
its HTML and the bytes of every response a fresh headless Chromium receives while loading it, until
the network is quiet (stylesheets, scripts, fonts, images and the search index that Material's
search worker fetches). Sizes are uncompressed bodies: a server that compresses sends fewer.

The folder is served on 127.0.0.1 under a sub-path, as the site is published.
"""

from __future__ import annotations

import argparse
import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
PREFIX = "/weigh/"
DEFAULT_PAGES = ["", "02-one-head-by-hand/", "07-full-block/", "verification/", "notebooks/02-one-head-by-hand/"]


class _Handler(SimpleHTTPRequestHandler):
    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + path[len(PREFIX) :] if path.startswith(PREFIX) else "/\x00missing")

    def log_message(self, format, *args):  # noqa: A002 - the standard library's name
        pass


def folder_bytes(folder: Path, skip: str | None = None) -> tuple[int, int]:
    files = [f for f in folder.rglob("*") if f.is_file() and not (skip and f.relative_to(folder).parts[0] == skip)]
    return sum(f.stat().st_size for f in files), len(files)


def weigh(site: Path, pages: list[str]) -> list[tuple[str, int, int, int, dict[str, int]]]:
    """(page, html bytes, total bytes, requests, bytes by kind) for each page, each in a fresh context."""
    from playwright.sync_api import sync_playwright

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}{PREFIX}"
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for page_path in pages:
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                responses = []
                context.on("response", responses.append)
                page = context.new_page()
                page.goto(base + page_path, wait_until="networkidle")
                page.evaluate("document.fonts.ready.then(() => true)")
                page.wait_for_load_state("networkidle")
                kinds: dict[str, int] = {}
                total = 0
                for response in responses:
                    try:
                        size = len(response.body())
                    except Exception:  # noqa: BLE001 - a redirect has no body
                        size = 0
                    total += size
                    kind = response.request.resource_type
                    kinds[kind] = kinds.get(kind, 0) + size
                html = (site / page_path / "index.html") if not page_path.endswith(".html") else site / page_path
                rows.append((page_path or "(home)", html.stat().st_size, total, len(responses), kinds))
                context.close()
            browser.close()
    finally:
        httpd.shutdown()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("pages", nargs="*", default=DEFAULT_PAGES)
    args = parser.parse_args()
    total, count = folder_bytes(args.site)
    no_downloads, _ = folder_bytes(args.site, skip="downloads")
    print(f"site folder: {total:,} bytes in {count} files ({no_downloads:,} bytes without downloads/)")
    print(f"{'page':40} {'HTML':>10} {'first load':>12} {'requests':>9}  by kind")
    for page, html, loaded, requests, kinds in weigh(args.site, args.pages):
        detail = ", ".join(f"{k} {v:,}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
        print(f"{page:40} {html:>10,} {loaded:>12,} {requests:>9}  {detail}")


if __name__ == "__main__":
    main()
