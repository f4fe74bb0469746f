"""The tie guard as a scan of any built site: ``python -m sitescan ties SITE`` lists every tie a
reader would see as written, each with its file:line, all in one run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sitescan.cli import main
from sitescan.ties import scan, surviving_ties

RENDERED = (
    '<p>Row C gives <a class="checked-number" href="../verification/#check-p-3-1" id="tie-3-1" '
    'title="Computed at build: weights[2, 0] = 0.2482 (snippets/02.py)">0.248</a>.</p>\n'
)
CODE = (
    '<pre><code><span class="sa">f</span><span class="s2">&quot;$d_</span><span class="se">{{</span>model'
    '<span class="se">}}</span>$&quot;</code></pre>\n'
)


def _site(root: Path, pages: dict[str, str]) -> Path:
    for rel, html in pages.items():
        path = root / "site" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
    return root / "site"


def _seen(html: str) -> list[tuple[int, str, str]]:
    return [(s.line, s.text, s.where) for s in surviving_ties(html)]


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # what a reader sees as written
        ("<p>Row C gives {{ 0.248 = weights[2, 0] }}.</p>", [(1, "{{ 0.248 = weights[2, 0] }}", "text")]),
        ("<p>BLEU {{ 27.3 @ Vaswani et al. (2017) }}</p>", [(1, "{{ 27.3 @ Vaswani et al. (2017) }}", "text")]),
        ("<p>\n\nIt grows {{ 3..5 ~ growth[2] }}-fold</p>", [(3, "{{ 3..5 ~ growth[2] }}", "text")]),
        ("<pre><code>x = {{ 0.5 = x }}\n</code></pre>", [(1, "{{ 0.5 = x }}", "text")]),  # code shows it raw too
        ("<p>It is {{ <em>0.5</em> = <code>x</code> }}.</p>", [(1, "{{ 0.5 = x }}", "text")]),  # split by inline markup
        ("<p>It is &#123;&#123; 0.5 = x &#125;&#125;.</p>", [(1, "{{ 0.5 = x }}", "text")]),  # character references
        ("<p>It is {{ 0.5\n   = x }}.</p>", [(1, "{{ 0.5 = x }}", "text")]),  # one tie over two source lines
        ("<p>It is {{0.5=x}}.</p>", [(1, "{{0.5=x}}", "text")]),  # unspaced, still braces on the page
        ('<img alt="a plot of {{ 0.5 = x }}" src="a.svg">', [(1, "{{ 0.5 = x }}", "img alt")]),
        ('<a title="{{ 1 = n }}" href="x/">x</a>', [(1, "{{ 1 = n }}", "a title")]),
        ('<meta name="description" content="Gives {{ 1 = n }}.">', [(1, "{{ 1 = n }}", "meta content")]),
        ("<p>{{ 1 = a }} and</p>\n<p>{{ 2 = b }}</p>", [(1, "{{ 1 = a }}", "text"), (2, "{{ 2 = b }}", "text")]),
        # what a reader does not see, or what is no tie
        (RENDERED, []),
        (CODE, []),  # a Python f-string's escaped braces: no operator
        ("<p>{{ page.title }}</p>", []),
        ("<script>var t = '{{ 0.5 = x }}';</script><style>/* {{ 0.5 = x }} */</style><!-- {{ 0.5 = x }} -->", []),
        ('<div data-tie="{{ 0.5 = x }}"><a href="?q={{ 0.5 = x }}">x</a></div>', []),
        ("<p>{{ 0.5</p><p>= x }}</p>", []),  # two paragraphs: the reader sees no tie
        ("<p>{{ a = b } }</p>", []),
    ],
)
def test_a_tie_is_found_where_a_reader_sees_it(html, expected):
    assert _seen(html) == expected


def test_every_tie_of_every_page_is_listed_in_one_run(tmp_path, capsys):
    site = _site(
        tmp_path,
        {
            "index.html": RENDERED + CODE,
            "a/index.html": "<h1>A</h1>\n<p>It is {{ 1 = x }}.</p>\n",
            "b/index.html": "<p>ok</p>\n<p>\nQuoted {{ 2 @ Source }} and {{ 3 = y }}</p>\n",
            "assets/x.js": "const tie = '{{ 1 = x }}';\n",
        },
    )
    found, files = scan(site)
    assert files == 3  # HTML only
    assert [str(s) for s in found] == [
        "a/index.html:2: a tie a reader sees as written: {{ 1 = x }}",
        "b/index.html:3: a tie a reader sees as written: {{ 2 @ Source }}",
        "b/index.html:3: a tie a reader sees as written: {{ 3 = y }}",
    ]
    assert main(["ties", str(site)]) == 1
    err = capsys.readouterr().err
    assert f"{site}/a/index.html:2: a tie" in err and f"{site}/b/index.html:3: a tie" in err
    assert "3 tie(s) left as written in 3 HTML files" in err


def test_a_clean_site_passes(tmp_path, capsys):
    site = _site(tmp_path, {"index.html": RENDERED + CODE, "verification/index.html": "<p>Every number</p>"})
    assert main(["ties", str(site)]) == 0
    assert "2 HTML files read, no tie left as written" in capsys.readouterr().err


def test_not_a_site_is_refused(tmp_path, capsys):
    assert main(["ties", str(tmp_path / "missing")]) == 2
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "style.css").write_text("p {}")
    assert main(["ties", str(tmp_path / "empty")]) == 2
    assert "holds no HTML" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["ties"])


def test_the_command_line_runs_as_a_module(tmp_path):
    site = _site(tmp_path, {"index.html": "<p>{{ 1 = x }}</p>\n"})
    run = subprocess.run([sys.executable, "-m", "sitescan", "ties", str(site)], capture_output=True, text=True)
    assert run.returncode == 1 and "index.html:1: a tie a reader sees as written: {{ 1 = x }}" in run.stderr
