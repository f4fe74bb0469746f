"""snipcheck: run documentation snippets at build time and fail on any drift from the page.

The checker knows nothing of MkDocs; ``snipcheck.mkdocs`` is the thin layer for the site. Its
folders are its pipeline, data flowing one way (tests/snipcheck/test_architecture.py holds it):

- leaves: ``problems`` (typed problems), ``numeric`` (the numeric rule), ``values`` (a value as
  documented, as computed, and whether they match), ``layout`` (where added files stand),
  ``dispatch`` (one handler per region type for a stage), ``kept`` (what is read out of a
  snippet's source, kept between builds);
- ``read/``: page -> regions;
- ``run/``: snippets -> results;
- ``check/``: regions and results -> outcomes, in a ``Build`` record;
- ``engine``: the whole check of a set of pages;
- ``report/``: outcomes -> rendered pages, the verification page, notebooks, accepted values;
- faces: ``cli`` and ``mkdocs/``.

Public pieces: ``Engine`` (check a folder of pages), ``parse`` (read one page into regions),
``compare_output`` and ``Number`` (the numeric rule), ``accepted_text`` (accept a change),
``Problem`` and ``ProblemKind`` (what went wrong, typed).
"""

from .check.records import Build
from .engine import Engine
from .numeric import Number, compare_output
from .problems import Problem, ProblemKind
from .read.page import parse
from .report.accept import accepted_text

__all__ = ["Build", "Engine", "Number", "Problem", "ProblemKind", "accepted_text", "compare_output", "parse"]
