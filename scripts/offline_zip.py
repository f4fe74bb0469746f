"""The offline build of the site as one zip a reader downloads, unpacks and opens from disk.

    python scripts/offline_zip.py SITE_DIR ZIP_PATH

Every file of SITE_DIR goes under one folder, ``attention-computed/`` (a reader opens
``attention-computed/index.html``), in sorted order, each with the same fixed timestamp and
permissions: the same folder gives the same zip bytes, on any machine, on any day.
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path

ROOT_NAME = "attention-computed"
TIMESTAMP = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can carry
FILE_MODE = 0o100644  # a regular file, rw-r--r--


def write_zip(site_dir: Path, zip_path: Path, root_name: str = ROOT_NAME) -> int:
    """Write ``zip_path`` from ``site_dir``; return the number of files. Refuses a folder without an
    ``index.html`` (not a built site) and a zip inside the folder it packs."""
    site_dir, zip_path = Path(site_dir).resolve(), Path(zip_path).resolve()
    if not (site_dir / "index.html").is_file():
        raise SystemExit(f"{site_dir}: no index.html, not a built site")
    if zip_path.is_relative_to(site_dir):
        raise SystemExit(f"{zip_path}: the zip would be inside the folder it packs")
    files = sorted((p for p in site_dir.rglob("*") if p.is_file()), key=lambda p: p.relative_to(site_dir).as_posix())
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    partial = zip_path.with_name(zip_path.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in files:
            info = zipfile.ZipInfo(f"{root_name}/{path.relative_to(site_dir).as_posix()}", TIMESTAMP)
            info.external_attr = FILE_MODE << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    partial.replace(zip_path)
    return len(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site_dir", type=Path)
    parser.add_argument("zip_path", type=Path)
    args = parser.parse_args()
    count = write_zip(args.site_dir, args.zip_path)
    print(f"{args.zip_path}: {count} files, {args.zip_path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
