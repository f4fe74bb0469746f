"""The line the plugin logs once a build is checked: what ran, what was checked, what failed."""

from __future__ import annotations

from ..check.records import Build


def build_summary(build: Build, twice: bool) -> str:
    """One line for a complete ``build``; ``twice``: each new result was run twice and compared."""
    stats = build.stats
    line = (
        f"{len(stats.ran)} snippets run, {len(stats.cached)} from cache; {len(build.checks)} numbers checked, "
        f"{len(build.citations)} quoted, {len(build.problems)} problems"
    )
    if stats.pending:
        line += f"; {len(stats.pending)} still running"
    if twice:
        return line + "; each new result was run twice, side by side, and compared"
    return line + "; each snippet ran once (SNIPCHECK_TWICE=true: twice, compared)"
