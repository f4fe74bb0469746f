"""The site one checked build makes: every page as it renders, and every file the build adds.

``stage`` turns a ``Build`` into plain Markdown and files, the same for every builder:

- each checked page, rendered (snippet code included, outputs and ties rendered, problems listed
  at the top), its front matter kept, with a pointer to its notebook;
- ``figures/STEM/FILE``: every figure a snippet drew;
- ``verification.md``: the ledger of every checked and quoted number;
- ``notebooks/PAGE.ipynb``: one notebook per page that runs snippets, its cells filled with the
  verified outputs (see ``notebook.py``).

The MkDocs plugin hands these to MkDocs; ``python -m snipcheck render OUT`` writes them, with the
rest of the docs folder, as a tree any MkDocs-compatible builder can build without this package.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from .engine import Build, page_title
from .notebook import notebook_for
from .render import VERIFICATION_PAGE, render


@dataclass
class Staged:
    pages: dict[str, str] = field(default_factory=dict)  # src_uri -> the page as the site renders it
    files: dict[str, bytes] = field(default_factory=dict)  # src_uri -> a file the build adds
    notebooks: dict[str, str] = field(default_factory=dict)  # page src_uri -> its notebook's src_uri


def page_url(src_uri: str, use_directory_urls: bool = True) -> str:
    """The URL of a page relative to the site root, as MkDocs (and mkdocs-jupyter) give it:
    ``02-x.md`` -> ``02-x/``, ``index.md`` -> ``""``, ``a/index.md`` -> ``a/``; without directory
    URLs ``02-x.html``."""
    stem = posixpath.splitext(src_uri)[0]
    if not use_directory_urls:
        return stem + ".html"
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def link(from_uri: str, to_uri: str, use_directory_urls: bool = True, site_url: str = "") -> str:
    """A URL from the page of ``from_uri`` to the page of ``to_uri``: absolute under ``site_url``
    when one is given (a downloaded notebook has no site around it), else relative."""
    target = page_url(to_uri, use_directory_urls)
    if site_url:
        return site_url.rstrip("/") + "/" + target
    base = page_url(from_uri, use_directory_urls)
    base = base if base.endswith("/") or not base else posixpath.dirname(base) + "/"
    relative = posixpath.relpath(target or ".", base.rstrip("/") or ".")
    return relative + ("/" if target.endswith("/") or not target else "")


def notebook_tip(page_uri: str, notebook_uri: str) -> str:
    """The admonition at the end of a page that leads to its notebook (a Markdown link to the
    .ipynb source, which the builder resolves to the notebook's page)."""
    target = posixpath.relpath(notebook_uri, posixpath.dirname(page_uri) or ".")
    return (f'\n\n!!! tip "Run this page yourself"\n    Every snippet on this page, as a Jupyter notebook: '
            f"[see it with its outputs]({target}), and download the `.ipynb` from there.\n")


def notebook_uri(page_uri: str, notebooks_dir: str) -> str:
    return f"{notebooks_dir}/{posixpath.splitext(page_uri)[0].replace('/', '-')}.ipynb"


def has_notebook(build: Build, uri: str) -> bool:
    """A page gets a notebook when it runs snippets and every one of them ran cleanly (a notebook
    of a failed or still-running snippet would show no output or a wrong one)."""
    doc = build.docs[uri]
    results = [build.results.get(run.snippet) for run in doc.runs]
    return bool(results) and all(r is not None and r.error is None and not r.pending for r in results)


def stage(build: Build, *, notebooks_dir: str = "notebooks", use_directory_urls: bool = True,
          site_url: str = "", verification: bool = True, first_cells: list[dict] | None = None,
          pages: list[str] | None = None) -> Staged:
    """The rendered pages and added files of ``build``. ``notebooks_dir`` empty: no notebooks;
    ``site_url``: notebooks link to their pages there (absolute URLs); ``pages``: only these
    pages are rendered (the other parts are always complete)."""
    staged = Staged()
    staged.files.update(build.figures())
    if verification:
        staged.files[VERIFICATION_PAGE] = build.verification().encode("utf-8")
    for uri, doc in build.docs.items():
        if notebooks_dir and has_notebook(build, uri):
            nb_uri = notebook_uri(uri, notebooks_dir)
            name = posixpath.basename(nb_uri)
            text = notebook_for(doc, page_title(doc), link(nb_uri, uri, use_directory_urls, site_url),
                                build.sources, build.results, file_name=name, first_cells=first_cells)
            staged.files[nb_uri] = text.encode("utf-8")
            staged.notebooks[uri] = nb_uri
        if pages is None or uri in pages:
            staged.pages[uri] = page_markdown(build, uri, staged.notebooks.get(uri))
    return staged


def page_markdown(build: Build, uri: str, notebook: str | None = None) -> str:
    """The page as the site shows it, front matter included, with its notebook tip."""
    text = render(build, uri)
    if notebook:
        text = text.rstrip("\n") + notebook_tip(uri, notebook)
    return text
