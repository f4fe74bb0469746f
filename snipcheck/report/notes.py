"""What a build says besides its problems, once per build, to the command line and to MkDocs'
log alike: its summary, each guarantee of the sandbox this kernel did not give its runs (a
warning each), each run that is never cached, with why (one line each), and why runs started
from a fresh interpreter rather than the pre-imported parent, if they did (once).

The sandbox's guarantees are known from the runs of this build: a build that served everything
from the cache started no snippet, and has no sandbox to speak of.
"""

from __future__ import annotations

from ..check.records import Build
from ..engine import Engine


def summary(engine: Engine, build: Build) -> str:
    return (
        f"{len(build.stats.ran)} snippets run, {len(build.stats.cached)} from cache; "
        f"{len(build.checks)} numbers checked, {len(build.citations)} quoted, {len(build.problems)} problems"
        + (f"; {len(build.stats.pending)} still running" if build.stats.pending else "")
        + (
            "; each new result was run twice, side by side, and compared"
            if engine.check_determinism
            else "; each snippet ran once (SNIPCHECK_TWICE=true: twice, compared)"
        )
    )


def not_enforced(sandbox_note: str | None) -> list[str]:
    """One warning per guarantee the sandbox could not give (``sandbox_note``: what the snippet's
    process said of it, as ``landlock abi 7; not enforced: network namespace (...); ...``)."""
    if not sandbox_note:
        return []
    fence, _, missing = sandbox_note.partition("; not enforced: ")
    warnings = (
        [f"sandbox: {fence} (writes outside a snippet's folders are refused only when made from Python; TCP and signals are not fenced)"]
        if fence.startswith("python-only")
        else []
    )
    return warnings + [f"sandbox: not enforced: {item}" for item in missing.split("; ") if item]


def never_cached(engine: Engine, build: Build) -> list[str]:
    """The runs of this build that no later build reuses, and why (a live run reads the clock by
    declaration: the clock is not noted for it)."""
    return [
        f"{engine.snippets_prefix}/{name} is run every build, never cached: {result.unrecorded}"
        for name, result in sorted(build.results.items())
        if result.unrecorded and not result.from_cache
    ]


def build_notes(engine: Engine, build: Build) -> list[tuple[str, str]]:
    """(level, message) for a finished build: its summary, the sandbox's gaps, the runs never
    cached, and, the first time, why runs started from a fresh interpreter."""
    fork_note = engine.take_fork_note()
    return (
        [("info", summary(engine, build))]
        + [("warning", line) for line in not_enforced(engine.sandbox_note)]
        + [("info", line) for line in never_cached(engine, build)]
        + ([("info", fork_note)] if fork_note else [])
    )
