"""Command line: ``python -m snipcheck check`` and ``python -m snipcheck accept``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .accept import accepted_text, unified_diff
from .engine import Engine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="snipcheck", description=__doc__)
    parser.add_argument("command", choices=["check", "accept"],
                        help="check: run the snippets and compare every documented value; "
                             "accept: write the computed values into the Markdown and print the diff")
    parser.add_argument("--root", default=".", help="the project folder (default: here)")
    parser.add_argument("--refresh", action="store_true", help="ignore the cache and run every snippet")
    args = parser.parse_args(argv)
    engine = Engine(Path(args.root), refresh=args.refresh or None)
    build = engine.build()
    print(f"snipcheck: {len(build.stats.ran)} snippets run, {len(build.stats.cached)} from cache, "
          f"{len(build.checks)} numbers checked, {len(build.citations)} quoted", file=sys.stderr)
    if args.command == "accept":
        changed = 0
        for uri, doc in build.docs.items():
            after = accepted_text(doc, build.results)
            if after != doc.text:
                changed += 1
                (engine.docs_dir / uri).write_text(after, encoding="utf-8")
                sys.stdout.write(unified_diff(doc.path, doc.text, after))
        print(f"snipcheck: rewrote {changed} page(s)", file=sys.stderr)
        remaining = [p for p in build.problems if not p.message.startswith("documented ")]
        for problem in remaining:
            print(problem, file=sys.stderr)
        return 1 if remaining else 0
    for problem in build.problems:
        print(problem, file=sys.stderr)
    if build.problems:
        print(f"snipcheck: {len(build.problems)} problem(s)", file=sys.stderr)
    return 1 if build.problems else 0
