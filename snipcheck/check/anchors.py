"""Every checked and every quoted value gets a unique anchor on the verification page, from its
page, line and position in the line (so an edit elsewhere on the page moves only the anchors
below it)."""

from __future__ import annotations

import re

from .records import Build


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "page"


def assign_anchors(build: Build) -> None:
    slugs: dict[str, str] = {}
    used: set[str] = set()
    for path in sorted({c.path for c in build.checks} | {c.path for c in build.citations}):
        stem = _slug(path.rsplit(".", 1)[0].split("/", 1)[-1] if "/" in path else path.rsplit(".", 1)[0])
        slug, n = stem, 2
        while slug in slugs.values():
            slug, n = f"{stem}-{n}", n + 1
        slugs[path] = slug
    for prefix, rows in (("check", build.checks), ("cited", build.citations)):
        for row in rows:
            anchor = f"{prefix}-{slugs[row.path]}-{row.line}-{row.position}"
            n = 2
            while anchor in used:
                anchor, n = f"{prefix}-{slugs[row.path]}-{row.line}-{row.position}-{n}", n + 1
            used.add(anchor)
            row.anchor = anchor
