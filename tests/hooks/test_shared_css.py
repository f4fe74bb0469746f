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
