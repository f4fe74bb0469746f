"""Helpers for the checker's tests: a throwaway project with its own docs/ and snippets/, one page
read on its own, the processes a test leaves behind, the sandbox the kernel offers, and the one
MkDocs configuration the tests build with."""

from __future__ import annotations

import textwrap
from pathlib import Path

from snipcheck import Engine


class Project:
    """A tiny project in a temporary folder: write pages and snippets, then check them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "docs").mkdir()
        (root / "snippets").mkdir()

    def page(self, name: str, text: str) -> Path:
        path = self.root / "docs" / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    def snippet(self, name: str, code: str) -> Path:
        path = self.root / "snippets" / name
        path.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
        return path

    def module(self, rel: str, code: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
        return path

    def engine(self, **options) -> Engine:
        options.setdefault("check_determinism", False)
        return Engine(self.root, **options)

    def build(self, **options):
        return self.engine(**options).build()

    def problems(self, **options) -> list[str]:
        return [str(p) for p in self.build(**options).problems]


def page_problems(text: str, path: str = "docs/p.md") -> list[str]:
    """The problems reading one page finds, as the user sees them."""
    from snipcheck.read.page import parse

    return [str(p) for p in parse(text, path).problems]


def processes_with(needle: str) -> list[int]:
    """Live processes whose command line contains ``needle`` (zombies excluded)."""
    import os

    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{entry}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in cmdline and state != b"Z":
            found.append(int(entry))
    return found


def landlock_abi() -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return max(0, libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1)))


def mkdocs_config(
    *, nav: tuple[str, ...] = (), notebooks_dir: str = "", serve_wait: float | None = None, docs_dir: str = "docs", plugin: bool = True
) -> str:
    """The tests' mkdocs.yml: the site's Markdown extensions, the snipcheck plugin (``plugin``)
    with ``notebooks_dir`` and ``serve_wait``, and ``nav``."""
    lines = ["site_name: t", f"docs_dir: {docs_dir}"]
    if plugin:
        lines += ["plugins:", "  - snipcheck:", f"      notebooks_dir: {notebooks_dir or chr(34) * 2}"]
        lines += [f"      serve_wait: {serve_wait:g}"] if serve_wait is not None else []
    lines += ["markdown_extensions:", "  - admonition", "  - attr_list", "  - md_in_html", "  - tables", "  - pymdownx.superfences"]
    lines += (["nav:"] + [f"  - {page}" for page in nav]) if nav else []
    return "\n".join(lines) + "\n"


# The site's Markdown extensions that decide what is prose (mkdocs.yml; mathml only turns math into MathML).
SITE_EXTENSIONS = [
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "footnotes",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.arithmatex",
    "pymdownx.details",
    "pymdownx.highlight",
    "pymdownx.inlinehilite",
    "pymdownx.superfences",
    "pymdownx.tabbed",
]
SITE_EXTENSION_CONFIGS = {"pymdownx.arithmatex": {"generic": True}, "pymdownx.tabbed": {"alternate_style": True}}


def built_problems(project: Project) -> list[str]:
    """What a build of ``project`` reports, as the user sees it: the checker's problems, then, for
    each page, what its HTML shows that no check stands behind (the page rendered as MkDocs would)."""
    import markdown

    from snipcheck.report.page import unrendered_ties
    from snipcheck.report.stage import stage

    build = project.build()
    found = [str(p) for p in build.problems]
    staged = stage(build, notebooks_dir="", verification=False)
    for uri, text in sorted(staged.pages.items()):
        html = markdown.markdown(text, extensions=SITE_EXTENSIONS, extension_configs=SITE_EXTENSION_CONFIGS)
        found += [str(p) for p in unrendered_ties(build, uri, html)]
    return found
