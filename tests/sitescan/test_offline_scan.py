"""The offline guard as a scan of any built site: ``python -m sitescan offline SITE`` lists every
fetch from another host with its file:line, and passes a site that makes none."""

from __future__ import annotations

import pytest
from sitescan.cli import main
from sitescan.offline import html_fetches, remote_fetches, remote_html_fetches, scan

CLEAN_PAGE = """<!doctype html>
<html><head>
<link rel="stylesheet" href="../assets/main.css">
<link rel="canonical" href="https://example.org/sub/page/">
<link rel="alternate" type="application/rss+xml" href="https://example.org/feed.xml">
<script src="../assets/bundle.js"></script>
</head><body>
<a href="https://arxiv.org/abs/1706.03762">the paper</a>
<img alt="a figure" src="figures/a.svg" srcset="figures/a.svg 1x, figures/a@2x.svg 2x">
<svg xmlns="http://www.w3.org/2000/svg"><use href="#glyph"/></svg>
</body></html>
"""


def _site(tmp_path, **files):
    site = tmp_path / "site"
    for rel, text in {
        "index.html": CLEAN_PAGE,
        "assets/main.css": "body { background: url(img/x.png) }\n",
        "assets/bundle.js": "const a = fetch('search/index.json');\n// https://example.org/licence\n",
        **files,
    }.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, encoding="utf-8")
    return site


def test_a_site_that_fetches_nothing_from_another_host_passes(tmp_path, capsys):
    site = _site(tmp_path)
    assert main(["offline", str(site)]) == 0
    assert "3 files read, nothing fetched from another host" in capsys.readouterr().err


def test_a_planted_external_url_fails_with_its_file_line_and_url(tmp_path, capsys):
    page = CLEAN_PAGE.replace("</head>", '<script src="https://cdn.example/x.js"></script>\n</head>')
    site = _site(
        tmp_path,
        **{
            "02-page/index.html": page,
            "assets/fonts.css": "/* fonts */\n@import 'https://fonts.example/css?family=X';\n",
            "assets/load.js": "let w;\nw = new Worker('//workers.example/w.js');\n",
        },
    )
    assert main(["offline", str(site)]) == 1
    err = capsys.readouterr().err
    assert f"{site}/02-page/index.html:7: <script> fetches https://cdn.example/x.js from another host" in err
    assert f"{site}/assets/fonts.css:2: CSS fetches https://fonts.example/css?family=X from another host" in err
    assert f"{site}/assets/load.js:2: script fetches //workers.example/w.js from another host" in err
    assert "3 fetch(es) from another host in 6 files" in err


@pytest.mark.parametrize(
    ("html", "remote"),
    [
        ('<script src="https://cdn.example/x.js"></script>', ["https://cdn.example/x.js"]),
        ('<link rel="stylesheet" href="//fonts.example/css">', ["//fonts.example/css"]),
        ('<link rel="preload icon" href="HTTP://x.example/i.png">', ["HTTP://x.example/i.png"]),
        ('<img alt="a" srcset="a.png 1x, https://img.example/a2.png 2x">', ["https://img.example/a2.png"]),
        ("<style>\n@import 'https://x.example/a.css';</style>", ["https://x.example/a.css"]),
        ('<div style="background: url(https://x.example/b.png)"></div>', ["https://x.example/b.png"]),
        (
            '<iframe src="https://x.example/frame"></iframe><object data="//x.example/o"></object>',
            ["https://x.example/frame", "//x.example/o"],
        ),
        ('<svg><image href="https://x.example/i.png"/></svg>', ["https://x.example/i.png"]),
        ('<meta http-equiv="refresh" content="0; url=https://x.example/">', ["https://x.example/"]),
        ('<a href="https://arxiv.org/abs/1706.03762">paper</a>', []),
        ('<link rel="canonical" href="https://example.org/">', []),
        ('<script src="../assets/javascripts/bundle.js"></script><img src="figures/a.svg">', []),
    ],
)
def test_what_a_browser_fetches_from_another_host(html, remote):
    assert [f.url for f in remote_fetches(html, ".html", "p.html")] == remote
    # the quick scan of the parts that can fetch finds what parsing the whole page finds
    assert [f[1:] for f in remote_html_fetches(html)] == [f[1:] for f in html_fetches(html) if f[2] in remote]


@pytest.mark.parametrize(
    ("html", "found"),
    [
        ("<!-- <script src='https://x.example/old.js'></script> -->", []),
        ("<script>const s = '<img src=\"https://x.example/in-a-string.png\">';</script>", []),
        (
            '<img alt="a > b" src="https://x.example/after-a-bracket.png">',
            [(1, "<img>", "https://x.example/after-a-bracket.png")],
        ),
        ('<p title="//not a fetch">x</p><span style="color: red">y</span>', []),
        (
            '<p>\n<span class="a" style="background: url(//x.example/s.png)">z</span>',
            [(2, "inline CSS", "//x.example/s.png")],
        ),
        (
            "<style>\np { color: red }\n</style><style>\n\n@import url('https://x.example/i.css');\n</style>",
            [(5, "inline CSS", "https://x.example/i.css")],
        ),
    ],
)
def test_comments_and_script_text_fetch_nothing_and_lines_are_right(html, found):
    assert remote_html_fetches(html) == found


def test_lines_are_counted_in_the_file_and_local_fetches_are_listed_but_not_remote():
    html = "<p>\n</p>\n<img alt='x' src='a.png'>\n<script src='https://x.example/s.js'></script>"
    assert html_fetches(html) == [(3, "<img>", "a.png"), (4, "<script>", "https://x.example/s.js")]


def test_not_a_site_is_refused(tmp_path, capsys):
    assert main(["offline", str(tmp_path / "missing")]) == 2
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("x")
    assert main(["offline", str(tmp_path / "empty")]) == 2
    assert "is it a built site?" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["offline"])


def test_the_scan_counts_the_files_it_read(tmp_path):
    found, files = scan(_site(tmp_path))
    assert (found, files) == ([], 3)
