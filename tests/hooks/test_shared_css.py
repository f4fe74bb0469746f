"""hooks/shared_css.py: large inline stylesheets become shared files."""

from __future__ import annotations

import re

import pytest


@pytest.fixture(scope="module")
def shared_css(load_hook):
    return load_hook("shared_css")


BIG_CSS = ".jupyter-wrapper { color: red; }\n" * 200  # 6,400 bytes


def test_a_large_style_block_becomes_a_shared_file(shared_css, tmp_path):
    html = f'<p>a</p><style type="text/css">{BIG_CSS}</style><p>b</p>'
    out = shared_css.share_styles(html, "notebooks/02-one-head-by-hand/", tmp_path)
    links = re.findall(r'<link rel="stylesheet" href="([^"]+)">', out)
    assert len(links) == 1 and links[0].startswith("../../assets/shared-css/") and links[0].endswith(".css")
    assert out.startswith("<p>a</p><link") and out.endswith("<p>b</p>")  # in place: the cascade keeps its order
    assert "<style" not in out
    assert (tmp_path / links[0].removeprefix("../../")).read_text() == BIG_CSS


def test_identical_blocks_share_one_file(shared_css, tmp_path):
    pages = ["notebooks/a/", "notebooks/b/", ""]
    outs = [shared_css.share_styles(f"<style>{BIG_CSS}</style>", url, tmp_path) for url in pages]
    assert len(list((tmp_path / "assets" / "shared-css").iterdir())) == 1
    assert outs[0] == outs[1] and outs[2] == outs[0].replace("../../", "")


@pytest.mark.parametrize(
    "attrs, css",
    [
        ("", "p { color: red; }"),  # small: stays inline
        (' media="print"', BIG_CSS),  # other attributes: stays inline
        ("", BIG_CSS + ".x { background: url(img/a.png); }"),  # a relative url would move
        ("", BIG_CSS + ".x { background: url( '../a.png' ); }"),
    ],
)
def test_blocks_that_cannot_move_stay_inline(shared_css, tmp_path, attrs, css):
    html = f"<style{attrs}>{css}</style>"
    assert shared_css.share_styles(html, "notebooks/a/", tmp_path) == html
    assert not (tmp_path / "assets").exists()


def test_data_urls_do_not_keep_a_block_inline(shared_css, tmp_path):
    html = f"<style>{BIG_CSS}.x {{ background: url('data:image/png;base64,AAAA'); }}</style>"
    assert "<link" in shared_css.share_styles(html, "", tmp_path)


def test_a_changed_block_gets_a_file_of_its_own(shared_css, tmp_path):
    first = shared_css.share_styles(f"<style>{BIG_CSS}</style>", "", tmp_path)
    second = shared_css.share_styles(f"<style>{BIG_CSS}.y {{ color: blue; }}</style>", "", tmp_path)
    assert first != second and len(list((tmp_path / "assets" / "shared-css").iterdir())) == 2
    for out in (first, second):
        name = re.search(r'href="([^"]+)"', out)[1]
        assert (tmp_path / name).read_text() in (BIG_CSS, BIG_CSS + ".y { color: blue; }")


@pytest.mark.parametrize("url", ["https://fonts.example.com/a.css", "//cdn.example.com/b.css"])
def test_a_block_it_moves_that_would_fetch_from_another_host_fails_the_build(shared_css, tmp_path, url):
    """An ``@import`` (a ``url()`` on another host keeps the block inline, for hooks/offline.py)."""
    from mkdocs.exceptions import PluginError

    html = f'<style>@import "{url}";\n{BIG_CSS}</style>'
    message = rf"docs/notebooks/a\.ipynb: the page would load {re.escape(url)} from another host"
    with pytest.raises(PluginError, match=message):
        shared_css.share_styles(html, "notebooks/a/", tmp_path, "docs/notebooks/a.ipynb")


def test_blocks_move_before_the_template_search_and_offline_scan_read_the_page(shared_css, tmp_path):
    """On the page's content (on_page_content), not on the written page: what reads the page
    after it reads a link, not the whole stylesheet."""
    page = type("Page", (), {"url": "notebooks/a/", "file": type("File", (), {"src_uri": "notebooks/a.ipynb"})()})()
    config = {"site_dir": str(tmp_path)}
    out = shared_css.on_page_content(f"<style>{BIG_CSS}</style>", page=page, config=config, files=None)
    assert out.startswith('<link rel="stylesheet" href="../../assets/shared-css/')
    assert not hasattr(shared_css, "on_post_page")


def test_a_block_ends_at_its_first_end_tag_in_any_case(shared_css, tmp_path):
    html = f"<STYLE>{BIG_CSS}a < b {{}}</Style><p>between</p><style>p {{ color: red; }}</style>"
    out = shared_css.share_styles(html, "", tmp_path)
    assert re.fullmatch(r'<link rel="stylesheet" href="[^"]+"><p>between</p><style>p \{ color: red; \}</style>', out)
    name = re.search(r'href="([^"]+)"', out)[1]
    assert (tmp_path / name).read_text() == BIG_CSS + "a < b {}"
