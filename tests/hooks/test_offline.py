"""hooks/offline.py: nothing on a page is fetched from another host."""

from __future__ import annotations

import pytest
from mkdocs.exceptions import PluginError


class _Page:
    class file:  # noqa: N801 - mimics mkdocs' page.file
        src_uri = "p.md"


@pytest.fixture(scope="module")
def offline(load_hook):
    return load_hook("offline")


@pytest.mark.parametrize(
    ("html", "remote"),
    [
        ('<script src="https://cdn.example/x.js"></script>', ["https://cdn.example/x.js"]),
        ('<link rel="stylesheet" href="//fonts.example/css">', ["//fonts.example/css"]),
        ('<img alt="a" src="http://img.example/a.png">', ["http://img.example/a.png"]),
        ("<style>@import 'https://x.example/a.css';</style>", ["https://x.example/a.css"]),
        ('<div style="background: url(https://x.example/b.png)"></div>', ["https://x.example/b.png"]),
        ('<a href="https://arxiv.org/abs/1706.03762">paper</a>', []),  # a link is not a fetch
        ('<link rel="canonical" href="https://example.org/">', []),
        ('<script src="../assets/javascripts/bundle.js"></script><img src="figures/a.svg">', []),
    ],
)
def test_remote_fetches_are_found(offline, html, remote):
    assert offline.remote_fetches(html) == remote


def test_a_page_that_would_fetch_from_another_host_fails_the_build(offline):
    with pytest.raises(PluginError, match=r"docs/p.md: the page would load https://cdn.example/x.js"):
        offline.on_post_page('<script src="https://cdn.example/x.js"></script>', _Page, None)


def test_nbconvert_mathjax_block_is_removed(offline):
    html = (
        '<head><!-- Load mathjax --><script src="https://cdnjs.example/mathjax.js"> </script>'
        "<!-- End of mathjax configuration --></head>"
    )
    assert offline.on_post_page(html, _Page, None) == "<head></head>"


def test_the_offline_build_has_no_instant_navigation(offline):
    from types import SimpleNamespace

    features = ["navigation.instant", "navigation.instant.progress", "content.code.annotate"]
    for enabled, expected in [(True, ["content.code.annotate"]), (False, features)]:
        plugin = SimpleNamespace(config=SimpleNamespace(enabled=enabled))
        config = SimpleNamespace(extra={}, plugins={"material/offline": plugin}, theme={"features": list(features)})
        assert offline.on_config(config).theme["features"] == expected


@pytest.fixture
def reads(offline, monkeypatch):
    """The pages the scan read (not taken from what was kept)."""
    read = []
    real = offline.remote_fetches
    monkeypatch.setattr(offline, "remote_fetches", lambda html: read.append(html) or real(html))
    return read


REMOTE = '<script src="https://cdn.example/x.js"></script>'


def test_a_page_is_read_once_and_its_fetches_kept_for_the_next_build(offline, tmp_path, reads):
    first = offline.Fetches(tmp_path)
    assert first.remote_fetches("<p>a</p>") == [] and first.remote_fetches(REMOTE) == ["https://cdn.example/x.js"]
    first.save(every_page=True)
    again = offline.Fetches(tmp_path)
    assert again.remote_fetches("<p>a</p>") == [] and again.remote_fetches(REMOTE) == ["https://cdn.example/x.js"]
    assert reads == ["<p>a</p>", REMOTE]


def test_a_kept_page_that_fetches_fails_the_build_again(offline, tmp_path, reads):
    kept = offline.Fetches(tmp_path)
    kept.remote_fetches(REMOTE)
    kept.save(every_page=True)
    offline._build["fetches"] = offline.Fetches(tmp_path)
    try:
        with pytest.raises(PluginError, match=r"docs/p.md: the page would load https://cdn.example/x.js"):
            offline.on_post_page(REMOTE, _Page, None)
    finally:
        offline._build.pop("fetches")
    assert reads == [REMOTE]


def test_a_changed_page_is_read_again(offline, tmp_path, reads):
    first = offline.Fetches(tmp_path)
    first.remote_fetches("<p>a</p>")
    first.save(every_page=True)
    assert offline.Fetches(tmp_path).remote_fetches("<p>a</p>" + REMOTE) == ["https://cdn.example/x.js"]
    assert reads == ["<p>a</p>", "<p>a</p>" + REMOTE]


def test_an_edit_of_the_scan_reads_every_page_again(offline, tmp_path, reads, monkeypatch):
    first = offline.Fetches(tmp_path)
    first.remote_fetches("<p>a</p>")
    first.save(every_page=True)
    real = offline.Path.read_bytes
    edited = lambda self: real(self) + (b"# edited" if self.match("sitescan/offline.py") else b"")  # noqa: E731
    monkeypatch.setattr(offline.Path, "read_bytes", edited)
    offline.Fetches(tmp_path).remote_fetches("<p>a</p>")
    assert reads == ["<p>a</p>", "<p>a</p>"]


def test_another_python_reads_every_page_again(offline, tmp_path, reads, monkeypatch):
    first = offline.Fetches(tmp_path)
    first.remote_fetches("<p>a</p>")
    first.save(every_page=True)
    monkeypatch.setattr(offline.sys, "version", "3.99.0 (another)")  # its html.parser may read a page otherwise
    offline.Fetches(tmp_path).remote_fetches("<p>a</p>")
    assert reads == ["<p>a</p>", "<p>a</p>"]


def test_a_build_that_wrote_every_page_keeps_only_those(offline, tmp_path):
    first = offline.Fetches(tmp_path)
    first.remote_fetches("<p>old</p>")
    first.save(every_page=True)
    dirty = offline.Fetches(tmp_path)
    dirty.remote_fetches("<p>new</p>")
    dirty.save(every_page=False)  # a dirty rebuild wrote some pages: the others' stay
    assert len(offline.json.loads((tmp_path / "fetches.json").read_text())) == 2
    full = offline.Fetches(tmp_path)
    full.remote_fetches("<p>new</p>")
    full.save(every_page=True)
    assert len(offline.json.loads((tmp_path / "fetches.json").read_text())) == 1


@pytest.mark.parametrize("kept", ["not JSON", "[]", '{"k": "https://x.example/a.js"}', '{"k": [1]}'])
def test_a_kept_file_that_cannot_be_read_is_ignored(offline, tmp_path, kept):
    (tmp_path / "fetches.json").write_text(kept)
    assert offline.Fetches(tmp_path).kept == {}
