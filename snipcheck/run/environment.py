"""What every snippet run sees, and what every result depends on besides its own files.

A snippet runs with a fixed environment (``snippet_environment``, an allow-list: nothing of the
build's own environment leaks in), a matplotlibrc that draws headless and reproducibly, and the
limits below. ``environment_fingerprint`` is part of every cache key: the interpreter, every
installed distribution, this environment and the run stage's own code.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
from pathlib import Path

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


def environment_fingerprint() -> str:
    """What every result depends on besides its own files: the interpreter, every installed
    distribution and its version, the snippet environment and the runner's own code."""
    parts = [RUNNER_VERSION, sys.version, sys.executable, MATPLOTLIBRC, repr(sorted(PINNED_ENV.items())), str(DEFAULT_MEMORY_MB)]
    # One entry per distribution, however often the path lists it (an editable install is also
    # found from the project folder): the fingerprint must not depend on where the build runs.
    distributions = sorted(
        {
            f"{re.sub(r'[-_.]+', '-', d.metadata['Name']).lower()}=={d.version}"
            for d in importlib.metadata.distributions()
            if d.metadata and d.metadata["Name"]
        }
    )
    parts.append("\n".join(distributions))
    here = Path(__file__).parent
    parts += [(here / name).read_text(encoding="utf-8") for name in _OWN_FILES]
    return sha256("\x00".join(parts).encode())
