"""``python -m sitescan offline SITE`` and ``python -m sitescan ties SITE``: scans of a built site
folder, whichever builder wrote it. Exit codes: 0 clean; 1 each finding listed with its
file:line; 2 not a built site."""

from __future__ import annotations

import argparse

from . import offline, ties

SCANS = {"offline": offline.main, "ties": ties.main}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sitescan", description=__doc__)
    parser.add_argument(
        "scan",
        choices=sorted(SCANS),
        help="offline: what the site would fetch from another host; ties: the ties a reader would see as written",
    )
    parser.add_argument("site", help="the built site folder, e.g. site/")
    args = parser.parse_args(argv)
    return SCANS[args.scan](args.site)
