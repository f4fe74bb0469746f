"""The plugin's options in mkdocs.yml, with their defaults."""

from __future__ import annotations

from mkdocs.config import config_options
from mkdocs.config.base import Config


class SnipcheckConfig(Config):
    snippets_dir = config_options.Type(str, default="snippets")
    cache_dir = config_options.Type(str, default=".cache/snipcheck")
    check_determinism = config_options.Type(bool, default=True)
    notebooks_dir = config_options.Type(str, default="notebooks")  # site folder; empty: no notebooks
    serve_wait = config_options.Type((int, float), default=5.0)  # serve: seconds to wait for a run
    # module -> pip requirement, for a notebook's first cell (see files.py, resolve_requires)
    notebook_requires = config_options.Type(dict, default={})
