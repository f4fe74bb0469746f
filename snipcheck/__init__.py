"""snipcheck: run documentation snippets at build time and fail on any drift from the page.

The checker knows nothing of MkDocs; ``snipcheck.mkdocs_plugin`` is the thin layer for the site.
Public pieces: ``Engine`` (check a folder of pages), ``parse`` (read one page),
``compare_output`` and ``Number`` (the numeric rule), ``accepted_text`` (accept a change).
"""

from .accept import accepted_text
from .document import parse
from .engine import Build, Engine
from .numeric import Number, compare_output

__all__ = ["Build", "Engine", "Number", "accepted_text", "compare_output", "parse"]
