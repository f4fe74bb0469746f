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
