"""What every snippet run sees, and what every result depends on besides its own files.

A snippet runs with a fixed environment (``snippet_environment``, an allow-list: nothing of the
build's own environment leaks in), a matplotlibrc that draws headless and reproducibly, and the
limits below. ``environment_fingerprint`` is part of every cache key: the interpreter, every
installed distribution, this environment and the run stage's own code.

Reading the name and version of every installed distribution means parsing each one's metadata
(as e-mail headers), the largest part of the fingerprint's cost. Given a folder, the list is kept
there (``DISTRIBUTIONS``), keyed by the text of every distribution's metadata, Python's version
and the source of this module: a distribution installed, removed or changed in any way is a
miss, and the list is made again from the texts just read.
"""

from __future__ import annotations

import email
import importlib.metadata
import os
import re
import sys
from pathlib import Path

from ..kept import write_whole
from .cache import sha256

RUNNER_VERSION = "3"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 4096
OUTPUT_LIMIT = 1 << 20  # bytes of a snippet's stdout (and of its stderr) the checker reads
KILL_GRACE = 10.0  # seconds the supervisor has to stop the snippet's processes after the timeout
BOOTSTRAP = Path(__file__).with_name("_bootstrap.py")

# Matplotlib reads ./matplotlibrc first: every snippet draws headless, and SVGs come out the same
# on every run (fixed hash salt; the date is stripped after the run).
MATPLOTLIBRC = """\
backend: Agg
svg.hashsalt: snipcheck
svg.fonttype: none
savefig.format: svg
figure.facecolor: white
savefig.facecolor: white
font.size: 11
"""

PINNED_ENV = {
    "MPLBACKEND": "Agg",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
    "SOURCE_DATE_EPOCH": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONNOUSERSITE": "1",
    "PYTHONIOENCODING": "utf-8",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
}
# The run stage's code that decides what a result holds (how a snippet is fenced, run, compared
# and stored): a change to any of them is a new result.
_OWN_FILES = ("_bootstrap.py", "_zygote.py", "cache.py", "environment.py", "executor.py", "jobs.py", "result.py", "store.py", "zygote.py")


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def snippet_environment(tmp: Path, home: Path, marker: str) -> dict[str, str]:
    """The whole environment a snippet sees (an allow-list, not the build's environment). HOME
    and matplotlib's cache are the run's own, fresh: nothing one run writes there reaches another."""
    return {
        **PINNED_ENV,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(home),
        "MPLCONFIGDIR": str(home / "matplotlib"),
        "TMPDIR": str(tmp),
        "SNIPCHECK_RUN": marker,
    }


DISTRIBUTIONS = "distributions.txt"  # in the cache folder: the key, then one distribution a line


def _metadata_texts() -> list[str]:
    """The metadata text of every distribution on the path, as ``Distribution.metadata`` reads it."""
    texts = []
    for dist in importlib.metadata.distributions():
        texts.append(dist.read_text("METADATA") or dist.read_text("PKG-INFO") or dist.read_text("") or "")
    return texts


def _distribution_lines(texts: list[str]) -> list[str]:
    """``name==version`` of each distribution, the name normalised, once each however often the
    path lists it (an editable install is also found from the project folder): the fingerprint
    must not depend on where the build runs."""
    found = set()
    for text in texts:
        message = email.message_from_string(text)
        if message and message["Name"]:
            found.add(f"{re.sub(r'[-_.]+', '-', message['Name']).lower()}=={message['Version']}")
    return sorted(found)


def installed_distributions(folder: Path | None = None) -> list[str]:
    """``_distribution_lines`` of what is installed now; kept in ``folder`` (see the module's notes)."""
    texts = _metadata_texts()
    key = sha256("\x00".join([sys.version, Path(__file__).read_text(encoding="utf-8"), *sorted(texts)]).encode())
    path = folder / DISTRIBUTIONS if folder is not None else None
    if path is not None:
        try:
            kept = path.read_text(encoding="utf-8").split("\n")
            if kept[0] == key:
                return kept[1:]
        except OSError:
            pass
    lines = _distribution_lines(texts)
    if path is not None:
        write_whole(path, "\n".join([key, *lines]))  # not kept if it cannot be: made again next time
    return lines


def environment_fingerprint(folder: Path | None = None) -> str:
    """What every result depends on besides its own files: the interpreter, every installed
    distribution and its version, the snippet environment and the runner's own code. ``folder``:
    where the list of distributions is kept between builds (none: made afresh)."""
    parts = [RUNNER_VERSION, sys.version, sys.executable, MATPLOTLIBRC, repr(sorted(PINNED_ENV.items())), str(DEFAULT_MEMORY_MB)]
    parts.append("\n".join(installed_distributions(folder)))
    here = Path(__file__).parent
    parts += [(here / name).read_text(encoding="utf-8") for name in _OWN_FILES]
    return sha256("\x00".join(parts).encode())
