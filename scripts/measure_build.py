"""Measure the author's loop in a throwaway copy of the project (`make measure`).

Each figure is the median of REPEATS runs, printed with the machine's load average at the time
(this machine is shared: read a figure taken under load as an upper bound), beside its target:

- cold build: `mkdocs build --strict` with empty project caches (snippet results, notebooks),
  with the CPU seconds it and its snippets spent;
- warm rebuild: the same again, nothing changed;
- `snipcheck check` right after the build: how many snippets it ran again (only the live
  timings may: every other result is reused);
- `mkdocs serve` as every MkDocs guide gives it, and `mkdocs serve --dirty` as `make serve` runs
  it: from the start to the first page answered (warm caches), and from writing a page to the
  server answering with the edited page;
- snippet edit -> page under `make serve`'s flags, printed beside that snippet's own running time
  (one run, as the build runs it), measured alone in the same sandbox.

`--test` also times `make test` in a fresh clone, its set-up (virtual environment, browser)
included. The copy is made from the files git tracks, so it is what a fresh clone would build.

`--fail-over 2` exits 1 when a median exceeds twice its target: a bound generous enough for a
shared machine, for a check that fails on a regression rather than on the load of the moment.
`--only` measures some of these (`--only warm,serve,dirty`: the edit loop alone). Without `cold`,
the copy starts from this checkout's caches (.cache/: every entry is keyed on what it depends on,
so what the tracked files no longer match is simply redone) and is built once, untimed, first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
MKDOCS = [sys.executable, "-m", "mkdocs"]
PROSE_PAGE = "docs/index.md"
SNIPPET = "02_one_head.py"  # a short snippet, on the page below
SNIPPET_PAGE = "docs/02-one-head-by-hand.md"


def _serve_flags() -> list[str]:
    """The flags `make serve` gives `mkdocs serve`, but its address: what an author runs."""
    recipe = re.search(r"^serve:.*\n\t(?P<line>.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    if recipe is None:
        raise SystemExit("the Makefile has no serve target")
    words = recipe["line"].split()
    flags = words[words.index("serve") + 1 :]
    if "-a" in flags:
        del flags[flags.index("-a") : flags.index("-a") + 2]
    return flags


SERVE_FLAGS = _serve_flags()


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min: {five:.1f}) on {os.cpu_count()} cores"


def tracked_copy(dest: Path) -> Path:
    """The files git tracks, and data/, copied to ``dest`` (a fresh clone's tree after set-up, without the history)."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, names):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = dest / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    if (ROOT / "data").is_dir():  # the text `make text` fetched (ignored by git)
        shutil.copytree(ROOT / "data", dest / "data", dirs_exist_ok=True)
    return dest


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(project: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one strict build, its snippets' processes included."""
    cpu, start = _children_cpu(), time.perf_counter()
    run = subprocess.run(
        [*MKDOCS, "build", "--strict", "-q", "-d", str(project / "site")],
        cwd=project,
        env=ENV,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"mkdocs build failed in {project}:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    return seconds, _children_cpu() - cpu


def check_after_build(project: Path) -> tuple[int, int]:
    """(snippets run, snippets from cache) of `snipcheck check` right after a build."""
    run = subprocess.run(
        [sys.executable, "-m", "snipcheck", "check"],
        cwd=project,
        env=ENV,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    summary = re.search(r"(\d+) snippets? run, (\d+) from cache", run.stdout + run.stderr)
    if run.returncode != 0 or summary is None:
        raise SystemExit(f"snipcheck check failed in {project}:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    return int(summary[1]), int(summary[2])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Serve:
    """`mkdocs serve` on a free port, its output drained in the background."""

    def __init__(self, project: Path, flags: list[str]) -> None:
        self.port = _free_port()
        self.log = project / "serve.log"
        self.process = subprocess.Popen(
            [*MKDOCS, "serve", *flags, "-a", f"127.0.0.1:{self.port}"],
            cwd=project,
            env=ENV,
            stdin=subprocess.DEVNULL,
            stdout=open(self.log, "wb"),
            stderr=subprocess.STDOUT,
        )
        self.base = "/"
        self.started = self.wait_for("", "", timeout=600)  # start -> the first page answered
        # mkdocs serve serves the site at the path of its site_url (/attention-computed/), and
        # redirects the root there: every page is asked for under that path.
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=120) as response:
            self.base = urllib.parse.urlsplit(response.geturl()).path.rstrip("/") + "/"
        # Edits are timed once the first build's background runs (the live snippets) have ended
        # and the rebuild each one triggers is done: every page answers without one running.
        for page in sorted((project / "docs").glob("*.md")):
            self.wait_for("" if page.stem == "index" else f"{page.stem}/", "</html>", timeout=600)

    def get(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{self.base}{path}", timeout=120) as response:
            return response.read().decode("utf-8", "replace")

    def wait_for(self, path: str, text: str, timeout: float = 120) -> float:
        """Seconds until the page at ``path`` holds ``text`` and runs nothing in the background."""
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            if self.process.poll() is not None:
                raise SystemExit(f"mkdocs serve ended:\n{self.log.read_text(errors='replace')[-3000:]}")
            try:
                page = self.get(path)
                if text in page and "Snippets still running" not in page:
                    return time.perf_counter() - start
            except OSError:
                pass
            time.sleep(0.02)
        log = self.log.read_text(errors="replace")[-3000:]
        raise SystemExit(f"the served page {path!r} never showed {text!r}:\n{log}")

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def edit_to_page(serve: Serve, file: Path, url: str, edit, marker: str) -> float:
    original = file.read_text(encoding="utf-8")
    try:
        time.sleep(1.0)  # let the watcher settle after the last rebuild
        start = time.perf_counter()
        file.write_text(edit(original, marker), encoding="utf-8")
        serve.wait_for(url, marker)
        return time.perf_counter() - start
    finally:
        file.write_text(original, encoding="utf-8")
        serve.wait_for(url, "</html>")  # the page again without the edit; not timed
        time.sleep(1.5)


def _prose(text: str, marker: str) -> str:
    head, sep, rest = text.partition("\n\n")
    return head + sep + f"Measured edit {marker}.\n\n" + rest


def _comment(text: str, marker: str) -> str:
    """A comment line at the end (a snippet split into cells must open with its first cell)."""
    return text.rstrip("\n") + f"\n# measured edit {marker}\n"


def snippet_seconds(project: Path, name: str, repeats: int, timeout: float | None = None) -> float:
    """The snippet's own running time in the sandbox: one run, as `mkdocs build` and `mkdocs serve`
    run it (mkdocs.yml: SNIPCHECK_TWICE unset)."""
    code = (
        "import sys, time\nfrom pathlib import Path\nsys.path.insert(0, '.')\n"
        "from snipcheck.run.executor import Executor\nfrom snipcheck.run.result import Request\n"
        "executor = Executor(Path('.'), Path('snippets'), Path(sys.argv[2]))\n"
        "start = time.perf_counter()\n"
        "result = executor.run_one(sys.argv[1], Request(timeout=float(sys.argv[3]) or None))\n"
        "assert result.error is None, result.error\nprint(time.perf_counter() - start)\n"
    )
    times = []
    with tempfile.TemporaryDirectory() as cache:
        for _ in range(repeats):
            run = subprocess.run(
                [sys.executable, "-c", code, name, cache, str(timeout or 0)],
                cwd=project,
                env=ENV,
                capture_output=True,
                text=True,
                check=True,
            )
            times.append(float(run.stdout.split()[-1]))
    return statistics.median(times)


def live_snippets(project: Path) -> dict[str, float | None]:
    """The snippets a run block marks ``live``, with the timeout it allows, as the checker reads the pages."""
    code = (
        "import sys\nsys.path.insert(0, '.')\nfrom snipcheck import Engine\n"
        "engine = Engine('.')\npages, _ = engine.read_pages()\n"
        "print(' '.join(sorted({f'{r.snippet}={r.timeout or 0}' for d in engine.parse(pages).values() "
        "for r in d.runs if r.live})))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=project, env=ENV, capture_output=True, text=True, check=True)
    return {name: float(timeout) or None for name, timeout in (item.split("=") for item in run.stdout.split())}


def slowest_snippets(project: Path, count: int = 5) -> list[tuple[float, str]]:
    found = []
    for entry in (project / ".cache" / "snipcheck").glob("*.json"):
        try:
            result = json.loads(entry.read_text(encoding="utf-8"))["result"]
            found.append((result["seconds"], result["name"]))
        except (OSError, ValueError, KeyError):
            continue
    return sorted(found, reverse=True)[:count]


PARTS = ("cold", "warm", "check", "serve", "dirty", "snippet")


def parts(text: str) -> set[str]:
    chosen = {part.strip() for part in text.split(",") if part.strip()}
    unknown = chosen - set(PARTS)
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown part(s) {', '.join(sorted(unknown))}: choose from {', '.join(PARTS)}"
        )
    return chosen


def warm_copy(dest: Path) -> Path:
    """The tracked files with this checkout's caches, built once (untimed): a warm tree."""
    project = tracked_copy(dest)
    if (ROOT / ".cache").is_dir():
        shutil.copytree(ROOT / ".cache", project / ".cache", dirs_exist_ok=True)
    wall, cpu = build(project)
    print(f"warm caches copied from this checkout; first build (untimed) {wall:.1f} s, CPU {cpu:.1f} s; {load()}")
    return project


OVER: list[str] = []  # the figures whose median exceeded --fail-over times their target
FAIL_OVER = [0.0]  # --fail-over: 0 never fails


def report(label: str, samples: list[float], loads: list[str], target: float | None, extra: str = "") -> None:
    median = statistics.median(samples)
    if target is not None and FAIL_OVER[0] and median > FAIL_OVER[0] * target:
        OVER.append(f"{label}: median {median:.2f} s > {FAIL_OVER[0]:g} x {target:g} s")
    verdict = "" if target is None else (f"  [target <= {target:g} s: " + ("met]" if median <= target else "MISSED]"))
    print(f"{label}: median {median:.2f} s of {', '.join(f'{s:.2f}' for s in samples)}{extra}{verdict}")
    for sample, at in zip(samples, loads, strict=True):
        print(f"    {sample:.2f} s at {at}")


def time_make_test(repeats: int) -> None:
    with tempfile.TemporaryDirectory(prefix="measure-test-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        samples, loads = [], []
        for _ in range(repeats):
            shutil.rmtree(clone / ".cache", ignore_errors=True)
            shutil.rmtree(clone / ".venv", ignore_errors=True)
            start = time.perf_counter()  # the set-up (virtual environment, browser) is part of make test
            run = subprocess.run(["make", "test"], cwd=clone, capture_output=True, text=True)
            samples.append(time.perf_counter() - start)
            loads.append(load())
            print(run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "(no output)")
            if run.returncode != 0:
                print(run.stdout[-4000:])
                raise SystemExit("make test failed")
        report("make test (fresh clone, set-up included)", samples, loads, 480)


def serve_edits(
    project: Path, flags: list[str], repeats: int, label: str, start_target: float, edit_target: float
) -> Serve:
    """Start `mkdocs serve FLAGS` REPEATS times (warm caches) and time prose edits on the last one."""
    starts, start_loads = [], []
    for _ in range(repeats):
        serve = Serve(project, flags)
        starts.append(serve.started)
        start_loads.append(load())
        if len(starts) < repeats:
            serve.close()
    report(f"{label}: start -> first page answered (warm caches)", starts, start_loads, start_target)
    prose, prose_loads = [], []
    for i in range(repeats):
        prose.append(edit_to_page(serve, project / PROSE_PAGE, "", _prose, f"prose-{i}-{time.time_ns()}"))
        prose_loads.append(load())
    report(f"{label}: prose edit -> page served", prose, prose_loads, edit_target)
    return serve


def edit_loop(project: Path, only: set[str], repeats: int) -> None:
    """Prose edits under `mkdocs serve` and `make serve`'s flags, then snippet edits under the latter."""
    if "serve" in only:
        serve_edits(project, [], repeats, "mkdocs serve", 10, 2).close()
    if not only & {"dirty", "snippet"}:
        return
    serve = serve_edits(project, SERVE_FLAGS, repeats, f"mkdocs serve {' '.join(SERVE_FLAGS)}", 10, 1)
    if "snippet" not in only:
        serve.close()
        return
    try:
        page = SNIPPET_PAGE.removeprefix("docs/").removesuffix(".md") + "/"
        edits, edit_loads = [], []
        for i in range(repeats):
            marker = f"snippet-{i}-{time.time_ns()}"
            edits.append(edit_to_page(serve, project / "snippets" / SNIPPET, page, _comment, marker))
            edit_loads.append(load())
    finally:
        serve.close()
    own = snippet_seconds(project, SNIPPET, repeats)
    overhead = [e - own for e in edits]
    label = f"mkdocs serve {' '.join(SERVE_FLAGS)}, snippet edit ({SNIPPET}) -> page served"
    report(
        label,
        edits,
        edit_loads,
        None,
        f"; the snippet's own running time {own:.2f} s, so {statistics.median(overhead):.2f} s beyond it"
        f"  [target <= 1 s beyond it: {'met' if statistics.median(overhead) <= 1.0 else 'MISSED'}]",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--test", action="store_true", help="also time make test in a fresh clone")
    parser.add_argument(
        "--only",
        type=parts,
        default=set(PARTS),
        metavar="PARTS",
        help=f"a comma-separated choice of {', '.join(PARTS)}",
    )
    parser.add_argument(
        "--fail-over",
        type=float,
        default=0.0,
        metavar="FACTOR",
        help="exit 1 when a figure's median exceeds FACTOR times its target (a generous bound for a shared machine)",
    )
    args = parser.parse_args()
    FAIL_OVER[0] = args.fail_over
    only = args.only
    print(f"measuring in a throwaway copy; {load()}")
    with tempfile.TemporaryDirectory(prefix="measure-") as tmp:
        if "cold" in only:
            colds, cold_cpu, cold_loads = [], [], []
            for i in range(args.repeats):
                project = tracked_copy(Path(tmp) / f"cold-{i}")
                wall, cpu = build(project)
                colds.append(wall)
                cold_cpu.append(cpu)
                cold_loads.append(load())
            report(
                "cold build (empty caches)",
                colds,
                cold_loads,
                60,
                f"; CPU {statistics.median(cold_cpu):.0f} s (median)",
            )
            print(
                "    slowest snippets in the last cold build (wall s, beside the others): "
                + ", ".join(f"{name} {s:.1f}" for s, name in slowest_snippets(project))
            )
        else:
            project = warm_copy(Path(tmp) / "warm")
        if "warm" in only:
            warms, warm_cpu, warm_loads = [], [], []
            for _ in range(args.repeats):
                wall, cpu = build(project)
                warms.append(wall)
                warm_cpu.append(cpu)
                warm_loads.append(load())
            extra = f"; CPU {statistics.median(warm_cpu):.1f} s (median, its snippets included)"
            report("warm rebuild (nothing changed)", warms, warm_loads, 3, extra)
        if "check" in only:
            live = live_snippets(project)
            ran, cached = check_after_build(project)
            print(
                f"snipcheck check right after the build: {ran} snippets run, {cached} from cache "
                f"(the live timings, {len(live)}, run every time)"
                f"  [target: every other result reused: {'met' if ran <= len(live) else 'MISSED'}]"
            )
            alone = (f"{name} {snippet_seconds(project, name, 1, timeout):.1f} s" for name, timeout in live.items())
            print(
                "    the live snippets (timings), which every build runs, alone, one after another: " + ", ".join(alone)
            )

        edit_loop(project, only, args.repeats)
    if args.test:
        time_make_test(1)
    if OVER:
        raise SystemExit("over the bound --fail-over sets:\n" + "\n".join(OVER))


if __name__ == "__main__":
    main()
