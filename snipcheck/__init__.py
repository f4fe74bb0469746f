"""snipcheck: run documentation snippets at build time and fail on any drift from the page.

The checker knows nothing of MkDocs; ``snipcheck.mkdocs_plugin`` is the thin layer for the site.
Every construct on a page is read once into a region (``snipcheck.regions``); the engine checks
each region once, and rendering, ``accept`` and the verification page read those outcomes.
Public pieces: ``Engine`` (check a folder of pages), ``parse`` (read one page into regions),
``compare_output`` and ``Number`` (the numeric rule), ``accepted_text`` (accept a change),
``Problem`` and ``ProblemKind`` (what went wrong, typed).
"""

from .accept import accepted_text
from .document import parse
from .engine import Build, Engine
from .numeric import Number, compare_output
from .results import Problem, ProblemKind

__all__ = ["Build", "Engine", "Number", "Problem", "ProblemKind", "accepted_text", "compare_output", "parse"]
