"""The site's Markdown extension and MkDocs hooks: formulas become MathML, nothing is fetched from
another host, and large inline stylesheets become shared files."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

HOOKS = Path(__file__).resolve().parent.parent / "hooks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"hooks_{name}", HOOKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Page:
    class file:  # noqa: N801 - mimics mkdocs' page.file
        src_uri = "p.md"


@pytest.fixture(scope="module")
def offline():
    return _load("offline")


def _markdown(text: str) -> str:
    """``text`` converted as the site converts it: arithmatex marks formulas, the mathml extension
    (by its entry point name, as mkdocs.yml names it) turns them into MathML."""
    import markdown

    return markdown.markdown(text, extensions=["pymdownx.arithmatex", "mathml", "md_in_html", "tables"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})


def test_inline_and_display_formulas_become_mathml():
    out = _markdown("A head of width $d_k$:\n\n$$\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$$\n")
    assert "arithmatex" not in out and "\\(" not in out and "\\frac" not in out and "$" not in out
    assert out.count("<math") == 2
    assert 'display="block"' in out and "<msqrt>" in out and "<msub>" in out and '<div class="math-block">' in out


def test_upright_words_stay_whole_words():
    assert '<mi mathvariant="normal">softmax</mi>' in _markdown("$\\mathrm{softmax}(x)$")


def test_html_escapes_in_formulas_are_undone_before_conversion():
    out = _markdown("$a < b$")
    assert "<mo>&#x0003C;</mo>" in out and "&amp;lt;" not in out


def test_formulas_in_tables_and_html_blocks_become_mathml():
    out = _markdown('| n | cost |\n|---|---|\n| 1 | $n^2$ |\n\n<div markdown="1">\n\n$\\sqrt{d_k}$\n\n</div>\n')
    assert out.count("<math") == 2 and "arithmatex" not in out


@pytest.mark.parametrize("latex, why", [
    ("\\left( a", "ExtraLeftOrMissingRightError"), ("a^", "MissingSuperScriptOrSubscriptError"),
    ("\\begin{cases} a", "MissingEndError"), ("\\softmaxx(x)", "unknown command \\softmaxx"),
])
def test_a_formula_that_cannot_be_read_fails_with_the_formula(latex, why):
    from mdmathml import FormulaError

    with pytest.raises(FormulaError) as error:
        _markdown(f"Before ${latex}$ after.")
    assert str(error.value).startswith(f"cannot render the formula {latex!r}: {why}")


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
    html = ('<head><!-- Load mathjax --><script src="https://cdnjs.example/mathjax.js"> </script>'
            "<!-- End of mathjax configuration --></head>")
    assert offline.on_post_page(html, _Page, None) == "<head></head>"


@pytest.fixture(scope="module")
def shared_css():
    return _load("shared_css")


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


def test_templates_compile_once_and_again_when_their_source_changes(tmp_path):
    """hooks/templatecache.py: a second environment reads the compiled template from the cache,
    and an edited template is compiled afresh (Jinja keys the cache by a checksum of the source)."""
    import jinja2

    templatecache = _load("templatecache")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (tmp_path / "t.html").write_text("one {{ x }}", encoding="utf-8")
    config = type("Config", (), {"config_file_path": str(tmp_path / "mkdocs.yml")})()
    compiled = []

    def environment():
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)))
        original = env.compile
        env.compile = lambda *args, **kwargs: compiled.append(args[1]) or original(*args, **kwargs)
        return templatecache.on_env(env, config, files=None)

    assert environment().get_template("t.html").render(x=1) == "one 1"
    assert environment().get_template("t.html").render(x=2) == "one 2"
    assert compiled == ["t.html"]  # the second environment took the compiled code from .cache/jinja
    assert list((tmp_path / ".cache" / "jinja").iterdir())
    (tmp_path / "t.html").write_text("two {{ x }}", encoding="utf-8")
    assert environment().get_template("t.html").render(x=3) == "two 3"
    assert compiled == ["t.html", "t.html"]


@pytest.mark.parametrize("dirty", [False, True])
def test_the_math_font_covers_the_pages_a_dirty_rebuild_did_not_write(dirty):
    """hooks/mathfont.py cuts the font to the characters of the pages written. A whole build
    starts afresh; under ``mkdocs serve --dirty`` a rebuild writes only the changed pages, and the
    characters of the others must stay."""
    mathfont = _load("mathfont")

    def page(uri):
        return type("Page", (), {"file": type("File", (), {"src_uri": uri})})()

    mathfont.on_startup(command="serve", dirty=dirty)
    mathfont.on_pre_build(config=None)
    mathfont.on_post_page("<math><mi>α</mi></math>", page=page("a.md"), config=None)
    mathfont.on_post_page("<math><mi>β</mi></math>", page=page("b.md"), config=None)
    mathfont.on_pre_build(config=None)  # the rebuild after an edit of a.md
    mathfont.on_post_page("<math><mi>γ</mi></math>", page=page("a.md"), config=None)
    kept = set().union(*mathfont._characters.values())
    assert "γ" in kept and "α" not in kept
    assert ("β" in kept) == dirty
