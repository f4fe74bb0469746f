"""MkDocs hook: every page describes itself (meta description, Open Graph), generated pages too.

A written page states its description in its front matter (``description:``, one sentence; the
theme turns it into ``<meta name="description">`` and overrides/main.html into Open Graph tags;
tests/gates/test_publish.py checks that every page has its own). The pages the build generates
have no front matter of their own, so they get one here, unless they already have one:

- each notebook page (``notebooks/STEM.ipynb``) is described from the written page it comes from
  (``STEM.md``), whose title it names;
- the verification page gets a fixed sentence.

A generated page also has no source in the repository, so it gets no "Edit this page" link: a
page keeps its ``edit_url`` only when its file is one of ``docs_dir``'s own (the notebooks are
read from the checker's cache, the verification page from memory).

A generated page is also left out of the search index: a notebook repeats the code and outputs of
the page it comes from, and the verification page repeats every number of every page, so a search
answered from them points a reader at a copy instead of the page that teaches. (They are also most
of the HTML the search plugin would parse on every build.) A page's own ``search: exclude`` is
kept as written.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from mkdocs.plugins import event_priority

VERIFICATION_PAGE = "verification.md"
VERIFICATION_DESCRIPTION = (
    "Every number on this site that the build computed and checked, and every number "
    "quoted from a source, each linked to the page that states it."
)


def notebook_description(page_title: str) -> str:
    return (
        f"The code of the page “{page_title}” as a Jupyter notebook, executed when the site was built: "
        "read it here or download it and run it."
    )


def generated_description(src_uri: str, files) -> str | None:
    """The description of a generated page, or None for a page that must state its own."""
    if src_uri == VERIFICATION_PAGE:
        return VERIFICATION_DESCRIPTION
    folder, name = posixpath.split(src_uri)
    if name.endswith(".ipynb"):
        source = files.get_file_from_path(posixpath.join(posixpath.dirname(folder), name[: -len(".ipynb")] + ".md"))
        if source is not None and source.page is not None and source.page.title:
            return notebook_description(source.page.title)
    return None


_files = None  # this build's files, kept from on_files (on_page_context does not receive them)


@event_priority(-100)  # after the plugins that add the generated pages
def on_files(files, config):
    global _files
    _files = files
    return files


def has_source(file, docs_dir: str) -> bool:
    """Whether ``file`` is a file of ``docs_dir`` (a page a contributor edits), not a generated one."""
    if file.generated_by is not None or not file.abs_src_path:
        return False
    return Path(file.abs_src_path).resolve().is_relative_to(Path(docs_dir).resolve())


@event_priority(50)  # before the search plugin indexes the page
def on_page_context(context, page, config, nav):
    # Every page has been read by now (titles and front matter are known); templates render next.
    if not has_source(page.file, config.docs_dir):
        page.edit_url = None
        page.meta.setdefault("search", {"exclude": True})
    if not page.meta.get("description") and _files is not None:
        description = generated_description(page.file.src_uri, _files)
        if description:
            page.meta["description"] = description
    return context
