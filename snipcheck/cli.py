"""Command line: ``python -m snipcheck check``, ``accept`` and ``render OUT``.

- ``check``: run the snippets and compare every documented value;
- ``accept``: write the computed values into the pages and print the diff;
- ``render OUT``: check, then write the site's Markdown tree to OUT: every file of the docs
  folder, each checked page rendered (code, outputs and ties), the figures, the verification page
  and the notebooks. Any MkDocs-compatible builder builds OUT without snipcheck (set its
  ``docs_dir`` to OUT and leave the snipcheck plugin out). Nothing is written while a problem
  remains. OUT must be empty, absent or an earlier ``render`` output (it is replaced whole).
  With ``--site-url`` the notebooks are written as a reader downloads them (links absolute under
  that address); ``--require MODULE=REQUIREMENT`` (repeatable) gives each notebook a first cell
  that pip-installs REQUIREMENT when its snippets import MODULE and it is missing (a requirement
  that is a path, ``downloads/x.whl``, is taken under the site URL).

Exit codes: 0 everything checks; 1 a problem remains (for ``accept``: after it wrote what it
could; for ``render``: nothing written); 2 the command could not run as asked (no pages found,
a page it must not write, an OUT it must not replace); 130 interrupted (Ctrl-C); 128 + N stopped
by signal N (143 SIGTERM, 129 SIGHUP). However the command is stopped, every snippet and every
process it started is stopped first.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from .engine import Engine
from .problems import ProblemKind
from .read.pages import decode_page
from .report.accept import PageWrite, WriteRefused, accepted_text, unified_diff, write_all
from .report.notes import never_cached, not_enforced


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="snipcheck", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "command",
        choices=["check", "accept", "render"],
        help="check: run the snippets and compare every documented value; "
        "accept: write the computed values into the Markdown and print the diff; "
        "render OUT: write the rendered Markdown tree to OUT",
    )
    parser.add_argument("out", nargs="?", help="render: the folder to write the tree to")
    parser.add_argument("--root", default=".", help="the project folder (default: here)")
    parser.add_argument("--docs", default="docs", help="the pages' folder, relative to the root (default: docs)")
    parser.add_argument("--refresh", action="store_true", help="ignore the cache and run every snippet")
    parser.add_argument(
        "--site-url", default="", help="render: where the site is published; notebooks link to their pages there (default: relative links)"
    )
    parser.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="MODULE=REQUIREMENT",
        help="render: a notebook whose snippets import MODULE installs REQUIREMENT when it is missing",
    )
    parser.add_argument("--no-directory-urls", action="store_true", help="render: pages are PAGE.html, not PAGE/ (MkDocs' use_directory_urls: false)")
    args = parser.parse_args(argv)
    if (args.command == "render") != (args.out is not None):
        parser.error("render needs the folder to write to (render OUT); check and accept take none")
    if args.command != "render" and args.require:
        parser.error("--require is for render")
    if args.command == "render":
        from .report.tree import StageRefused, check_destination

        try:
            args.requires = requirements(args.require, args.site_url)
        except ValueError as exc:
            parser.error(str(exc))

        try:
            check_destination(Path(args.root) / args.docs, Path(args.out), Path(args.root))
        except StageRefused as exc:
            print(f"snipcheck: render: {exc}", file=sys.stderr)
            return 2
    engine = Engine(Path(args.root), docs_dir=args.docs, refresh=args.refresh or None)
    try:
        with _terminated_as_interrupt():
            build = engine.build()
    except Terminated as exc:
        print(f"snipcheck: stopped by {signal.Signals(exc.signum).name}; every snippet and every process it started was stopped", file=sys.stderr)
        return 128 + exc.signum
    except KeyboardInterrupt:
        print("snipcheck: interrupted; every snippet was stopped", file=sys.stderr)
        return 130
    if any(p.kind is ProblemKind.PROJECT for p in build.problems):
        for problem in build.problems:
            print(f"snipcheck: {problem}", file=sys.stderr)
        return 2
    print(
        f"snipcheck: {len(build.stats.ran)} snippets run, {len(build.stats.cached)} from cache, "
        f"{len(build.checks)} numbers checked, {len(build.citations)} quoted",
        file=sys.stderr,
    )
    for line in never_cached(engine, build):
        print(f"snipcheck: {line}", file=sys.stderr)
    for line in not_enforced(engine.sandbox_note):
        print(f"snipcheck: warning: {line}", file=sys.stderr)
    fork_note = engine.take_fork_note()
    if fork_note:
        print(f"snipcheck: {fork_note}", file=sys.stderr)
    if args.command == "accept":
        return _accept(engine, build)
    if args.command == "render" and not build.problems:
        return _render(engine, build, Path(args.out), args)
    for problem in build.problems:
        print(problem, file=sys.stderr)
    if build.problems:
        print(f"snipcheck: {len(build.problems)} problem(s)", file=sys.stderr)
    return 1 if build.problems else 0


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (``timeout``, a cancelled CI job, a closed terminal): stopped as Ctrl-C
    stops the build, every snippet's processes killed before the command ends."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _terminated_as_interrupt:
    """While in force, SIGTERM and SIGHUP raise ``Terminated`` in the main thread."""

    SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

    def __enter__(self):
        def raise_terminated(signum, frame):
            raise Terminated(signum)

        self.before = {s: signal.signal(s, raise_terminated) for s in self.SIGNALS}
        return self

    def __exit__(self, *exc) -> None:
        for s, handler in self.before.items():
            signal.signal(s, handler)


def _accept(engine: Engine, build) -> int:
    writes, texts, diffs = [], {}, []
    for uri, doc in build.docs.items():
        path = engine.docs_dir / uri
        original = path.read_bytes()
        raw, problem = decode_page(original, doc.path)
        if problem is not None:
            continue
        bom = original.startswith(b"\xef\xbb\xbf")
        after = accepted_text(doc, build, raw)
        texts[uri] = after
        if after != raw:
            writes.append(PageWrite(path, original, (b"\xef\xbb\xbf" if bom else b"") + after.encode("utf-8")))
            diffs.append(unified_diff(doc.path, doc.text, after.replace("\r\n", "\n").replace("\r", "\n")))
    try:
        write_all(writes)
    except WriteRefused as exc:
        print(f"snipcheck: accept: {exc}", file=sys.stderr)
        return 2
    for diff in diffs:
        sys.stdout.write(diff)
    print(f"snipcheck: rewrote {len(writes)} page(s)", file=sys.stderr)
    remaining = engine.recheck(build, texts).problems + [p for p in build.problems if p.kind in (ProblemKind.ENCODING, ProblemKind.SANDBOX)]
    for problem in remaining:
        print(problem, file=sys.stderr)
    if remaining:
        print(f"snipcheck: accept: {len(remaining)} problem(s) remain that accept does not rewrite", file=sys.stderr)
    return 1 if remaining else 0


def requirements(pairs: list[str], site_url: str) -> dict[str, str]:
    """``MODULE=REQUIREMENT`` pairs as a dict; a requirement that names a file of the site (a path
    with a ``/`` and no scheme) becomes its URL under ``site_url``."""
    out = {}
    for pair in pairs:
        module, sep, spec = pair.partition("=")
        module, spec = module.strip(), spec.strip()
        if not sep or not module.isidentifier() or not spec:
            raise ValueError(f"--require {pair!r}: write MODULE=REQUIREMENT, e.g. attn=downloads/attn-0.1.0-py3-none-any.whl")
        if "/" in spec and "://" not in spec:
            if not site_url:
                raise ValueError(
                    f"--require {pair!r}: a file of the site needs --site-url (a downloaded notebook cannot install from a relative path)"
                )
            spec = site_url.rstrip("/") + "/" + spec.lstrip("/")
        out[module] = spec
    return out


def _render(engine: Engine, build, out: Path, args) -> int:
    from .report.stage import stage
    from .report.tree import StageRefused, write_tree

    staged = stage(build, site_url=args.site_url, use_directory_urls=not args.no_directory_urls, requires=args.requires)
    if args.site_url:  # the tree's notebooks are the files readers download: links absolute
        staged.files.update(staged.downloads)
    try:
        written = write_tree(engine.docs_dir, out, staged, root=engine.root)
    except StageRefused as exc:
        print(f"snipcheck: render: {exc}", file=sys.stderr)
        return 2
    print(
        f"snipcheck: rendered {len(staged.pages)} page(s), {len(staged.files)} generated file(s), {written} file(s) in all, to {out}", file=sys.stderr
    )
    return 0
