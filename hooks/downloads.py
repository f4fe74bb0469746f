"""MkDocs hook: what the site offers for download, linked from every page's footer.

- ``downloads/attn-VERSION-py3-none-any.whl``: the attn library (pure numpy; ``pip install`` it and
  numpy is all it pulls). Built on every build from this checkout's ``pyproject.toml`` by flit_core,
  the same backend ``pip install .`` uses, in-process (a few milliseconds). Every entry of the zip
  carries one fixed timestamp, so the same sources give the same bytes on any machine, on any day:
  the bytes of ``SOURCE_DATE_EPOCH=315532800 pip wheel .`` (tests/repo/test_packaging.py).
- the site for reading offline (a zip of the build with Material's offline plugin): that is a second
  build, made by ``make publish``, not here. The build only links to it, when it is told where the
  zip will be put (``extra.offline_zip``, from the ``OFFLINE_ZIP`` environment variable).

``config.extra["downloads"]`` gives both paths (relative to the site root; ``offline`` is empty when
there is no zip) and ``wheel_name``, from ``on_files`` on, for the footer
(overrides/partials/copyright.html) and for any plugin that links to them.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

FOLDER = "downloads"
# 1980-01-01 00:00:00, the earliest time a zip entry can carry; SOURCE_DATE_EPOCH=315532800.
WHEEL_TIMESTAMP = (1980, 1, 1, 0, 0, 0)


def build_wheel(project: Path) -> tuple[str, bytes]:
    """(file name, bytes) of the wheel of the package that ``project/pyproject.toml`` describes."""
    from flit_core.wheel import WheelBuilder

    logging.getLogger("flit_core").setLevel(logging.WARNING)  # its INFO lines would clutter the build log
    buffer = io.BytesIO()
    builder = WheelBuilder.from_ini_path(project / "pyproject.toml", buffer)
    builder.source_time_stamp = WHEEL_TIMESTAMP
    builder.build()
    return builder.wheel_filename, buffer.getvalue()


def on_config(config):
    offline_zip = (config.extra.get("offline_zip") or "").strip().lstrip("/")
    if offline_zip and (".." in offline_zip.split("/") or not offline_zip.endswith(".zip")):
        raise PluginError(
            f"OFFLINE_ZIP={offline_zip!r}: give a path inside the site that ends in .zip, "
            f"e.g. {FOLDER}/attention-computed-offline.zip"
        )
    config.extra["offline_zip"] = offline_zip
    return config


@event_priority(150)  # before the plugins (snipcheck: 100), so they can read config.extra["downloads"]
def on_files(files, config):
    project = Path(config.config_file_path).resolve().parent
    try:
        name, data = build_wheel(project)
    except Exception as exc:  # flit_core raises several types for a broken pyproject.toml
        raise PluginError(f"{project / 'pyproject.toml'}: cannot build the attn wheel: {exc}") from exc
    files.append(File.generated(config, f"{FOLDER}/{name}", content=data))
    config.extra["downloads"] = {
        "wheel": f"{FOLDER}/{name}",
        "wheel_name": name,
        "offline": config.extra["offline_zip"],
    }
    return files
