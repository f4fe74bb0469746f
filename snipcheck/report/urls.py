"""The URLs of the site's pages and notebooks, as MkDocs (and mkdocs-jupyter) give them."""

from __future__ import annotations

import posixpath


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


def notebook_uri(page_uri: str, notebooks_dir: str) -> str:
    return f"{notebooks_dir}/{posixpath.splitext(page_uri)[0].replace('/', '-')}.ipynb"


def download_path(nb_uri: str, use_directory_urls: bool = True) -> str:
    """Where a notebook's ``.ipynb`` is offered in the built site, relative to its root: beside its
    rendered page, as mkdocs-jupyter puts it (``notebooks/02-x/02-x.ipynb``)."""
    folder = page_url(nb_uri, use_directory_urls)
    folder = folder.rstrip("/") if folder.endswith("/") else posixpath.dirname(folder)
    return (f"{folder}/" if folder else "") + posixpath.basename(nb_uri)


def download_url(nb_uri: str, use_directory_urls: bool = True, site_url: str = "") -> str:
    """The URL of a notebook's download: relative to its page (its bare name) without ``site_url``,
    absolute under it with one."""
    if not site_url:
        return posixpath.basename(nb_uri)
    return site_url.rstrip("/") + "/" + download_path(nb_uri, use_directory_urls)
