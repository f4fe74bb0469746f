"""The whole check over a set of pages: parse them, run what they need, compare, render.

Nothing here knows about MkDocs; the plugin and the command line are thin layers over ``Engine``.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from .check import Check, Citation, check_document
from .document import FIGURES_DIR, Document, Problem, parse
from .render import render, verification_page
from .runner import Runner, SnippetResult, Stats

_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)


@dataclass
class Build:
    """The outcome of one check of the site."""

    docs: dict[str, Document]  # src_uri (relative to the docs folder) -> parsed page
    results: dict[str, SnippetResult]
    stats: Stats
    sources: dict[str, str]
    docs_prefix: str
    problems: list[Problem] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    page_problems: dict[str, list[Problem]] = field(default_factory=dict)

    def rendered(self, src_uri: str) -> str:
        doc = self.docs[src_uri]
        checks = [c for c in self.checks if c.path == doc.path]
        citations = [c for c in self.citations if c.path == doc.path]
        return render(doc, src_uri, self.sources, self.results, checks, citations, self.page_problems.get(src_uri, []))

    def figures(self) -> dict[str, bytes]:
        """Site path (relative to the docs folder) -> bytes of every figure the snippets drew."""
        return {
            f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/{fig}": result.figure_bytes(fig)
            for name, result in sorted(self.results.items())
            for fig in result.figures
        }

    def verification(self, titles: dict[str, str] | None = None) -> str:
        titles = titles or {uri: _page_title(doc.text, uri) for uri, doc in self.docs.items()}
        return verification_page(self.checks, self.citations, titles, self.docs_prefix)

    def report(self) -> str:
        """All problems, one per entry, each starting with file:line."""
        return "\n".join(str(p) for p in self.problems)


def _page_title(text: str, uri: str) -> str:
    match = _TITLE.search(text)
    return match.group(1) if match else uri


class Engine:
    def __init__(self, root: str | Path, docs_dir: str = "docs", snippets_dir: str = "snippets",
                 cache_dir: str = ".cache/snipcheck", *, refresh: bool | None = None,
                 check_determinism: bool = True, jobs: int | None = None) -> None:
        self.root = Path(root).resolve()
        self.docs_dir = (self.root / docs_dir).resolve()
        self.snippets_dir = (self.root / snippets_dir).resolve()
        if refresh is None:
            refresh = os.environ.get("SNIPCHECK_REFRESH", "") not in ("", "0")
        self.runner = Runner(self.root, self.snippets_dir, self.root / cache_dir, refresh=refresh,
                             check_determinism=check_determinism, jobs=jobs)

    def _rel(self, path: Path) -> str:
        return path.resolve().relative_to(self.root).as_posix()

    def read_pages(self) -> dict[str, str]:
        """src_uri -> text for every Markdown page in the docs folder."""
        return {p.relative_to(self.docs_dir).as_posix(): p.read_text(encoding="utf-8")
                for p in sorted(self.docs_dir.rglob("*.md"))}

    def build(self, pages: dict[str, str] | None = None) -> Build:
        """Check ``pages`` (src_uri -> Markdown; default: every page in the docs folder)."""
        pages = self.read_pages() if pages is None else pages
        prefix = self._rel(self.docs_dir)
        docs = {uri: parse(text, posixpath.join(prefix, uri), uri) for uri, text in pages.items()}
        requests: dict[str, tuple[float | None, bool]] = {}
        for doc in docs.values():
            for run in doc.runs:
                timeout, live = requests.get(run.snippet, (None, False))
                if run.timeout is not None:
                    timeout = max(timeout or 0, run.timeout)
                requests[run.snippet] = (timeout, live or run.live)
            for tie in doc.ties:
                if tie.snippet:
                    requests.setdefault(tie.snippet, (None, False))
        results, stats = self.runner.run_all(requests)
        sources = {name: (self.snippets_dir / name).read_text(encoding="utf-8")
                   for name in results if (self.snippets_dir / name).is_file()}
        out = Build(docs, results, stats, sources, prefix)
        for uri, doc in docs.items():
            problems, checks, citations = check_document(doc, results)
            out.page_problems[uri] = problems
            out.problems += problems
            out.checks += checks
            out.citations += citations
        out.problems += self._unused(docs, results)
        return out

    def _unused(self, docs: dict[str, Document], results: dict[str, SnippetResult]) -> list[Problem]:
        """Snippets no page runs and figures no page shows: both are work the reader never sees."""
        problems = []
        snippets_rel = self._rel(self.snippets_dir)
        for file in sorted(self.snippets_dir.glob("*.py")):
            if not file.name.startswith("_") and file.name not in results:
                problems.append(Problem(f"{snippets_rel}/{file.name}", 1, "no page runs this snippet"))
        shown = {posixpath.normpath(posixpath.join(posixpath.dirname(uri), fig.src))
                 for uri, doc in docs.items() for fig in doc.figures}
        for name, result in sorted(results.items()):
            for fig in result.figures:
                site_path = f"{FIGURES_DIR}/{name.rsplit('.', 1)[0]}/{fig}"
                if site_path not in shown:
                    problems.append(Problem(f"{snippets_rel}/{name}", 1, f"draws {fig}, but no page shows {site_path}"))
        return problems
