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


def _body(latex: str) -> str:
    """The MathML inside ``<mrow>`` of an inline formula, as the site writes it."""
    from mdmathml import to_mathml

    return re.fullmatch(r'<math [^>]*><mrow>(.*)</mrow></math>', to_mathml(latex))[1]


FA, THIN = "<mo>&#x2061;</mo>", '<mspace width="0.1667em" />'


@pytest.mark.parametrize("latex, expected", [
    # TeX spaces an operator name by a thin space from an ordinary symbol on either side, by none
    # from a bracket or another operator; MathML marks it applied with U+2061.
    ("\\log p", f"<mi>log</mi>{FA}{THIN}<mi>p</mi>"),
    ("r \\log r", f"<mi>r</mi>{THIN}<mi>log</mi>{FA}{THIN}<mi>r</mi>"),
    ("-\\log p", f"<mo>&#x02212;</mo><mi>log</mi>{FA}{THIN}<mi>p</mi>"),
    ("\\log(x)", f'<mi>log</mi>{FA}<mo stretchy="false">&#x00028;</mo><mi>x</mi><mo stretchy="false">&#x00029;</mo>'),
    ("\\max(a)", f'<mi>max</mi>{FA}<mo stretchy="false">&#x00028;</mo><mi>a</mi><mo stretchy="false">&#x00029;</mo>'),
    ("\\max_j s", f"<msub><mi>max</mi><mi>j</mi></msub>{FA}{THIN}<mi>s</mi>"),
    ("a = \\min b", f"<mi>a</mi><mo>&#x0003D;</mo><mi>min</mi>{FA}{THIN}<mi>b</mi>"),
    ("a\\,\\log b", f'<mi>a</mi><mspace width="0.167em" /><mi>log</mi>{FA}{THIN}<mi>b</mi>'),
    ("\\log", "<mi>log</mi>"),  # applied to nothing
    ("\\mathrm{softmax}(x)", '<mrow><mi mathvariant="normal">softmax</mi></mrow><mo stretchy="false">&#x00028;</mo>'
                             '<mi>x</mi><mo stretchy="false">&#x00029;</mo>'),  # not one of TeX's names
])
def test_named_functions_are_applied_and_spaced_as_tex_spaces_them(latex, expected):
    assert _body(latex) == expected


def test_a_negative_thin_space_is_a_margin_chromium_applies():
    body = _body("a\\!b")
    assert body == '<mi>a</mi><mspace style="margin-inline-start: -0.1667em" /><mi>b</mi>'
    assert "negativethinmathspace" not in _markdown("$$\\mathrm{softmax}\\!\\left(\\frac{a}{b}\\right)$$")


@pytest.fixture(scope="module")
def csp():
    return _load("csp")


def test_the_policy_hashes_exactly_the_inline_scripts_that_run(csp):
    import base64
    import hashlib

    html = ('<script>var a = 1;</script><script src="x.js"></script><script type="application/json">{"b": 2}</script>'
            '<script type="module">import("./y.js")</script>')
    expected = {f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
                for body in ("var a = 1;", 'import("./y.js")')}
    assert csp.inline_script_hashes(html) == expected


def test_the_policy_allows_the_site_itself_and_nothing_else(csp):
    policy = csp.policy({"'sha256-b'", "'sha256-a'"})
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self' 'sha256-a' 'sha256-b'"  # sorted: the same bytes every build
    assert directives["object-src"] == "'none'"
    assert "http" not in policy and "*" not in policy and "unsafe-eval" not in policy
    assert "unsafe-inline" not in directives["script-src"]


def test_the_offline_build_allows_inline_scripts_but_still_no_other_host(csp):
    policy = csp.policy({"'sha256-a'"}, any_inline_script=True)
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert directives["script-src"] == "'self' 'unsafe-inline'"  # a hash beside it would switch unsafe-inline off
    assert directives["default-src"] == "'self'" and "http" not in policy


def test_the_policy_is_the_first_thing_in_the_head_and_replaces_an_older_one(csp):
    page = '<html>\n<head>\n<meta charset="utf-8">\n<script>x()</script></head></html>'
    once = csp.with_policy(page, "default-src 'self'")
    assert once.index("Content-Security-Policy") < once.index("<script>")
    assert once.index('<meta charset="utf-8">') < once.index("Content-Security-Policy")
    again = csp.with_policy(once, "default-src 'none'")
    assert again.count("Content-Security-Policy") == 1 and "'none'" in again


def test_every_built_page_gets_the_sites_policy_but_a_served_one_does_not(csp, tmp_path):
    from types import SimpleNamespace

    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text("<html><head><script>one()</script></head></html>", encoding="utf-8")
    (tmp_path / "a" / "index.html").write_text("<html><head><script>two()</script></head></html>", encoding="utf-8")
    config = SimpleNamespace(site_dir=str(tmp_path))
    csp.on_startup(command="serve", dirty=False)
    csp.on_post_build(config)
    assert "Content-Security-Policy" not in (tmp_path / "index.html").read_text(encoding="utf-8")
    csp.on_startup(command="build", dirty=False)
    csp.on_post_build(config)
    policies = {re.search(r'content="([^"]*)"', p.read_text(encoding="utf-8"))[1] for p in tmp_path.rglob("*.html")}
    assert len(policies) == 1  # one policy: instant navigation keeps the first page's
    assert len(re.findall(r"'sha256-", policies.pop())) == 2


@pytest.fixture(scope="module")
def pagemeta():
    return _load("pagemeta")


def test_only_a_page_with_a_source_in_docs_keeps_its_edit_link(pagemeta, tmp_path):
    from types import SimpleNamespace

    docs, cache = tmp_path / "docs", tmp_path / ".cache"
    docs.mkdir()
    cache.mkdir()
    (docs / "a.md").write_text("# A\n", encoding="utf-8")
    (cache / "n.ipynb").write_text("{}", encoding="utf-8")

    def page(path, generated_by=None):
        file = SimpleNamespace(src_uri=Path(path).name if path else "v.md", abs_src_path=str(path) if path else None,
                               generated_by=generated_by)
        return SimpleNamespace(file=file, edit_url="https://example.org/edit/x", meta={"description": "d"})

    written, notebook, generated = page(docs / "a.md"), page(cache / "n.ipynb"), page(None, "snipcheck")
    for p in (written, notebook, generated):
        pagemeta.on_page_context({}, p, SimpleNamespace(docs_dir=str(docs)), None)
    assert written.edit_url == "https://example.org/edit/x"
    assert notebook.edit_url is None and generated.edit_url is None


def test_the_offline_build_has_no_instant_navigation(offline):
    from types import SimpleNamespace

    features = ["navigation.instant", "navigation.instant.progress", "content.code.annotate"]
    for enabled, expected in [(True, ["content.code.annotate"]), (False, features)]:
        plugin = SimpleNamespace(config=SimpleNamespace(enabled=enabled))
        config = SimpleNamespace(extra={}, plugins={"material/offline": plugin}, theme={"features": list(features)})
        assert offline.on_config(config).theme["features"] == expected


def test_a_social_card_is_a_1200_by_630_png_the_same_words_give_the_same_bytes(tmp_path):
    import io

    from PIL import Image

    socialcard = _load("socialcard")
    first = socialcard.cached_card(tmp_path, "Site", "04 Why scale by √d_k", "Why scores are divided. " * 8)
    assert socialcard.draw_card("Site", "04 Why scale by √d_k", "Why scores are divided. " * 8) == first
    assert len(list(tmp_path.glob("*.png"))) == 1  # kept: a warm build draws none
    with Image.open(io.BytesIO(first)) as image:
        assert image.format == "PNG" and image.size == (1200, 630)
        assert len(image.getcolors(256)) > 2  # words drawn on the background, not a blank card
    assert socialcard.cached_card(tmp_path, "Site", "Another title", "") != first
    assert socialcard.card_path("notebooks/01-x.ipynb") == "assets/social/notebooks/01-x.png"
