"""MkDocs hook: a social card for every page, the picture a link preview shows (``og:image``).

Each card is a 1200 x 630 PNG drawn by matplotlib (Agg) at build time: the site's name, the page's
title and its description, on the site's indigo, cut down to a palette of 16 colours by Pillow
(about a fifth of the bytes; the text stays smooth). Cards live at ``assets/social/PAGE.png`` and
overrides/main.html names the page's card (absolute, under ``site_url``, as Open Graph needs).

A card depends only on the words it shows and on this file, so it is kept in
``.cache/socialcards/`` under the hash of both and drawn again only when one of them changes: a
warm build draws none. The PNG carries no date, so the same words give the same bytes.
"""

from __future__ import annotations

import hashlib
import os
import textwrap
from pathlib import Path

from mkdocs.plugins import event_priority

WIDTH, HEIGHT, DPI = 1200, 630, 100
FOLDER = "assets/social"
INDIGO, WHITE, PALE = "#3f51b5", "#ffffff", "#c5cae9"
_CODE = Path(__file__).read_bytes()


def card_path(src_uri: str) -> str:
    """Where the card of the page ``src_uri`` is published, relative to the site."""
    stem = src_uri.rsplit(".", 1)[0]
    return f"{FOLDER}/{stem}.png"


def draw_card(site_name: str, title: str, description: str) -> bytes:
    """The PNG bytes of one card."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor=INDIGO)
    figure.text(0.06, 0.86, site_name, color=PALE, fontsize=26, va="top")
    title_lines = textwrap.wrap(title, 34)[:3]
    figure.text(
        0.06, 0.70, "\n".join(title_lines), color=WHITE, fontsize=48, fontweight="bold", va="top", linespacing=1.15
    )
    if description:
        lines = textwrap.wrap(description, 62)
        if len(lines) > 3:
            lines = lines[:3]
            lines[-1] = lines[-1].rstrip(" .,;:") + " …"
        figure.text(0.06, 0.08, "\n".join(lines), color=PALE, fontsize=22, va="bottom", linespacing=1.3)
    from PIL import Image

    drawn = io.BytesIO()
    figure.savefig(drawn, format="png", dpi=DPI, facecolor=INDIGO, metadata={"Software": None})
    drawn.seek(0)
    with Image.open(drawn) as image:
        small = image.convert("RGB").quantize(colors=16, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="png", optimize=True)
    return out.getvalue()


def cached_card(cache: Path, site_name: str, title: str, description: str) -> bytes:
    """The card for these words: from ``cache`` when drawn before by this code, else drawn and kept."""
    key = hashlib.sha256(_CODE + "\0".join([site_name, title, description]).encode("utf-8")).hexdigest()
    path = cache / f"{key}.png"
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = draw_card(site_name, title, description)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(data)
        temporary.replace(path)
    except OSError:
        pass  # an unwritable cache only costs the drawing next time
    return data


def _title(page, config) -> str:
    if page.is_homepage or not page.title:
        return config.site_name
    return page.title


@event_priority(-50)  # after hooks/pagemeta.py gave the generated pages their descriptions
def on_page_context(context, page, config, nav):
    description = (page.meta or {}).get("description") or config.site_description or ""
    data = cached_card(
        Path(config.config_file_path).parent / ".cache" / "socialcards",
        config.site_name,
        _title(page, config),
        description,
    )
    target = Path(config.site_dir) / card_path(page.file.src_uri)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    page.meta["social_card"] = card_path(page.file.src_uri)
    return context
