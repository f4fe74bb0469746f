"""Where the files a build adds stand in the site: the one home of the figure-path rule and of the
verification page's name.

A snippet ``NAME.py`` that saves ``FILE`` in its working folder gives the site
``figures/NAME/FILE``; a page shows it by a relative link that resolves there (an image), or by a
widget whose ``data-src`` does (a data file, ``.json``).
"""

from __future__ import annotations

import posixpath

FIGURES_DIR = "figures"
VERIFICATION_PAGE = "verification.md"
DATA_SUFFIX = ".json"  # a data file: a widget shows it, no image link may


def figure_folder(snippet: str) -> str:
    """``figures/NAME``: the site folder of every figure the snippet ``NAME.py`` draws."""
    return f"{FIGURES_DIR}/{snippet.rsplit('.', 1)[0]}"


def figure_path(snippet: str, file: str) -> str:
    """``figures/NAME/FILE``: where the figure ``FILE`` the snippet drew stands in the site."""
    return f"{figure_folder(snippet)}/{file}"


def figure_target(page_uri: str, src: str) -> str:
    """The site path an image link ``src`` on the page ``page_uri`` points to."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(page_uri), src))


def is_figure(target: str) -> bool:
    """Whether a site path lies in the figures folder (a snippet must draw it)."""
    return target.startswith(FIGURES_DIR + "/")


def figure_stem(target: str) -> str | None:
    """``NAME`` of a site path ``figures/NAME/FILE``, or None for any other path."""
    parts = target.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == FIGURES_DIR else None


def figure_snippet(target: str) -> str | None:
    """``NAME.py``, the snippet that writes the site path ``figures/NAME/FILE``, or None."""
    stem = figure_stem(target)
    return None if stem is None else f"{stem}.py"
