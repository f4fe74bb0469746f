"""The site one checked build makes: every page as it renders, and every file the build adds.

``stage`` turns a ``Build`` into plain Markdown and files, the same for every builder:

- each checked page, rendered (snippet code included, outputs and ties rendered, problems listed
  at the top), its front matter kept, with a pointer to its notebook;
- ``figures/STEM/FILE``: every figure a snippet drew;
- ``verification.md``: the ledger of every checked and quoted number;
- ``notebooks/PAGE.ipynb``: one notebook per page that runs snippets, its cells filled with the
  verified outputs (see ``notebook.py``), as the site renders it (links relative to the site); and
  the same notebook as a reader downloads it (``Staged.downloads``): its links absolute under the
  site's address, since a downloaded file has no site around it.

The MkDocs plugin hands these to MkDocs; ``python -m snipcheck render OUT`` writes them, with the
rest of the docs folder, as a tree any MkDocs-compatible builder can build without this package.

A build is staged more than once (a build again once its live snippets have ended, a served site
on every rebuild): given the last ``Staged``, a page's notebooks are taken from it when they were
made from the very same reading of the page and the very same result and source of each of its
snippets, with the same options (a result or a reading is never changed once made), and made
afresh otherwise.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field

from ..check.records import Build
from ..layout import VERIFICATION_PAGE, figure_path, figure_stem, figure_target
from .notebook import notebook_for
from .page import plain_title, render
from .urls import download_url, link, notebook_uri
from .verification import verification_page


@dataclass
class Staged:
    pages: dict[str, str] = field(default_factory=dict)  # src_uri -> the page as the site renders it
    files: dict[str, bytes] = field(default_factory=dict)  # src_uri -> a file the build adds
    notebooks: dict[str, str] = field(default_factory=dict)  # page src_uri -> its notebook's src_uri
    # notebook src_uri -> the notebook as downloaded (absolute links; relative without a site_url)
    downloads: dict[str, bytes] = field(default_factory=dict)
    placeholders: set[str] = field(default_factory=set)  # figures of snippets still running (see stage)
    build: Build | None = None  # what was staged, and with which options: what a later stage may reuse
    options: tuple = ()


# 1 x 1 transparent PNG: stands in for a PNG figure whose snippet is still running.
_EMPTY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c636000010000050001a5f645400000000049454e44ae426082"
)


def placeholder(site_path: str, snippet: str, failed: bool = False) -> bytes:
    """What stands in for a figure while its snippet still runs (under ``mkdocs serve``, until
    the rebuild its end triggers; in a build that does not wait, until it collects the run), or
    after it failed (under ``mkdocs serve``, whose page lists the error: a missing file would stop
    the preview). ``snippet``: as the site names it (``snippets/NAME.py``)."""
    if site_path.lower().endswith(".png"):
        return _EMPTY_PNG
    text = (
        f"{snippet} failed: no figure (the error is at the top of the page)"
        if failed
        else f"{snippet} is still running: the figure appears when it finishes"
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="80" viewBox="0 0 640 80">'
        '<rect width="640" height="80" fill="#ffffff" stroke="#999999"/>'
        f'<text x="320" y="45" font-family="sans-serif" font-size="15" text-anchor="middle" fill="#333333">{text}</text>'
        "</svg>\n"
    ).encode()


def notebook_tip(page_uri: str, notebook_uri: str) -> str:
    """The admonition at the end of a page that leads to its notebook (a Markdown link to the
    .ipynb source, which the builder resolves to the notebook's page)."""
    target = posixpath.relpath(notebook_uri, posixpath.dirname(page_uri) or ".")
    return (
        f'\n\n!!! tip "Run this page yourself"\n    Every snippet on this page, as a Jupyter notebook: '
        f"[see it with its outputs]({target}), and download the `.ipynb` from there.\n"
    )


def has_notebook(build: Build, uri: str) -> bool:
    """A page gets a notebook when it runs snippets and every one of them ran cleanly (a notebook
    of a failed or still-running snippet would show no output or a wrong one)."""
    doc = build.docs[uri]
    results = [build.results.get(run.snippet) for run in doc.runs]
    # A live run the build will still wait for counts as clean: if it fails, the build fails.
    return bool(results) and all(r is not None and r.error is None and (not r.pending or r.name in build.waiting) for r in results)


def stage(
    build: Build,
    *,
    notebooks_dir: str = "notebooks",
    use_directory_urls: bool = True,
    site_url: str = "",
    verification: bool = True,
    first_cells: list[dict] | None = None,
    requires: dict[str, str] | None = None,
    pages: list[str] | None = None,
    previous: Staged | None = None,
) -> Staged:
    """The rendered pages and added files of ``build``. ``notebooks_dir`` empty: no notebooks;
    ``site_url``: downloaded notebooks link to their pages there (absolute URLs); ``requires``
    (module -> pip requirement): what a notebook's set-up cell installs when it is missing;
    ``pages``: only these pages are rendered (the other parts are always complete); ``previous``:
    the last staging, whose notebooks are reused where nothing they are made of changed."""
    options = (notebooks_dir, use_directory_urls, site_url, json.dumps([first_cells, requires], sort_keys=True), build.snippets_prefix)
    staged = Staged(build=build, options=options)
    staged.files.update(figures(build))
    # A figure the page shows but whose snippet is still running or failed: a placeholder, so the
    # page's image link resolves (a build fails on the failure anyway, before writing anything).
    missing = {name.rsplit(".", 1)[0]: r for name, r in build.results.items() if r.pending or r.error is not None}
    for uri, doc in build.docs.items():
        for figure in doc.figures:
            target = figure_target(uri, figure.src)
            stem = figure_stem(target)
            if stem in missing and target not in staged.files:
                result = missing[stem]
                staged.files[target] = placeholder(target, build.snippet_label(result.name), failed=result.error is not None)
                staged.placeholders.add(target)
    if verification:
        titles = {uri: plain_title(doc) for uri, doc in build.docs.items()}
        staged.files[VERIFICATION_PAGE] = verification_page(build, titles, use_directory_urls).encode("utf-8")
    for uri, doc in build.docs.items():
        if notebooks_dir and has_notebook(build, uri):
            nb_uri = notebook_uri(uri, notebooks_dir)
            if _unchanged_notebook(previous, staged, uri, nb_uri):
                staged.files[nb_uri], staged.downloads[nb_uri] = previous.files[nb_uri], previous.downloads[nb_uri]
            else:
                staged.files[nb_uri], staged.downloads[nb_uri] = (
                    notebook_for(
                        doc,
                        plain_title(doc),
                        link(nb_uri, uri, use_directory_urls, url),
                        build.sources,
                        build.results,
                        file_name=download_url(nb_uri, use_directory_urls, url),
                        first_cells=first_cells,
                        requires=requires,
                        snippets_prefix=build.snippets_prefix,
                    ).encode("utf-8")
                    for url in ("", site_url)  # as the site renders it, then as downloaded
                )
            staged.notebooks[uri] = nb_uri
        if pages is None or uri in pages:
            staged.pages[uri] = page_markdown(build, uri, staged.notebooks.get(uri))
    return staged


def _unchanged_notebook(previous: Staged | None, staged: Staged, uri: str, nb_uri: str) -> bool:
    """Whether ``previous`` holds the notebooks of page ``uri`` made of what ``staged`` is made of."""
    if previous is None or previous.build is None or previous.options != staged.options:
        return False
    if nb_uri not in previous.downloads or nb_uri not in previous.files:
        return False
    before, build = previous.build, staged.build
    doc = build.docs[uri]
    return before.docs.get(uri) is doc and all(
        before.results.get(run.snippet) is build.results.get(run.snippet) and before.sources.get(run.snippet) == build.sources.get(run.snippet)
        for run in doc.runs
    )


def figures(build: Build) -> dict[str, bytes]:
    """Site path (relative to the docs folder) -> bytes of every figure the snippets drew."""
    return {figure_path(name, fig): result.figure_bytes(fig) for name, result in sorted(build.results.items()) for fig in result.figures}


def page_markdown(build: Build, uri: str, notebook: str | None = None) -> str:
    """The page as the site shows it, front matter included, with its notebook tip."""
    text = render(build, uri)
    if notebook:
        text = text.rstrip("\n") + notebook_tip(uri, notebook)
    return text
