"""Measure the site's build times in a throwaway copy of the project: a cold build (empty caches),
warm rebuilds (nothing changed), and the `mkdocs serve` reload after a prose edit.

Run with `make measure`. It prints wall-clock seconds; this machine is shared, so read them as
one sample, not a benchmark.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPY = ["mkdocs.yml", "docs", "snippets", "hooks", "overrides", "attn", "snipcheck"]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
MKDOCS = [sys.executable, "-m", "mkdocs"]


def build(project: Path) -> float:
    start = time.perf_counter()
    subprocess.run([*MKDOCS, "build", "--strict", "-q", "-d", str(project / "site")], cwd=project, env=ENV,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def serve_reloads(project: Path, edits: int = 3) -> list[float]:
    page = project / "docs" / "index.md"
    original = page.read_text(encoding="utf-8")
    server = subprocess.Popen([*MKDOCS, "serve", "-a", "127.0.0.1:8799"], cwd=project, env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def wait_for(text: str) -> float:
        for line in server.stdout:
            if text in line:
                return time.perf_counter()
        raise RuntimeError(f"mkdocs serve ended before printing {text!r}")

    try:
        wait_for("Serving on")
        times = []
        for i in range(edits):
            time.sleep(1.5)
            start = time.perf_counter()
            page.write_text(original.replace("numbers you can check", "numbers you can check" + " " * (i + 1), 1),
                            encoding="utf-8")
            times.append(wait_for("Reloading browsers") - start)
        return times
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="measure-") as tmp:
        project = Path(tmp)
        for name in COPY:
            source = ROOT / name
            (shutil.copytree if source.is_dir() else shutil.copy2)(source, project / name)
        print(f"cold build (empty caches): {build(project):.1f} s")
        warm = [build(project) for _ in range(3)]
        print("warm rebuilds (nothing changed): " + ", ".join(f"{t:.2f} s" for t in warm))
        print("mkdocs serve, edit to reload after a prose edit: "
              + ", ".join(f"{t:.2f} s" for t in serve_reloads(project)))


if __name__ == "__main__":
    main()
