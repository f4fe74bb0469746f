"""MkDocs hook: the theme's Jinja templates are compiled once, not on every build.

MkDocs makes a new Jinja environment for every build, and Material's templates (about sixty) are
compiled again each time, on every rebuild under ``mkdocs serve``. Jinja's own bytecode cache
keeps the compiled code in ``.cache/jinja``, keyed by the template's name and a checksum of its
source (and by Jinja's bytecode format and Python's version), so an edited template or an upgraded
theme compiles afresh.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import FileSystemBytecodeCache


def on_env(env, config, files):
    folder = Path(config.config_file_path).resolve().parent / ".cache" / "jinja"
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(folder))
    return env
