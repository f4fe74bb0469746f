"""MkDocs hook: the site's math font, cut down to the characters its formulas use.

The site serves Noto Sans Math so that formulas look right on a machine without a math font
(docs/assets/fonts/SOURCE.txt). The whole font is about 256 KB; the formulas use a few hundred of its
3,000 glyphs. After the pages are written, this hook collects every character inside a ``<math>``
element of any page, adds the mathematical italic, bold and bold italic forms of each letter
(Chromium draws a one-letter ``<mi>`` in italic, another code point) and a fixed base set (digits,
Latin letters, brackets, common operators, so that a formula a reader's browser builds is covered
too), and writes the font with only those glyphs (``fontTools.subset``: the OpenType MATH table is
kept, with the size variants and assembly parts of the glyphs kept) to ``OUTPUT``, which
docs/stylesheets/extra.css loads. The same characters give the same bytes.

The full font stays in docs/ as the source and is not published (``exclude_docs`` in mkdocs.yml).
tests/gates/test_math.py checks, in Chromium, that every character of every formula is drawn with it.
Under ``mkdocs serve --dirty`` a rebuild writes only the pages that changed: each page's characters
are kept until it is written again, so the font still covers the pages not rebuilt.
"""

from __future__ import annotations

import hashlib
import html
import io
import re
import unicodedata
from pathlib import Path

from mkdocs.exceptions import PluginError

SOURCE = "assets/fonts/noto-sans-math-latin-400-normal.woff"  # in docs_dir: the package's file
OUTPUT = "assets/fonts/noto-sans-math.woff"  # in site_dir: what the stylesheet loads
CACHE = ".cache/mathfont"  # next to mkdocs.yml
BASE = (
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    " ()[]{}|‖⟨⟩⌈⌉⌊⌋+−-×·÷=≠≈≤≥<>∑∏∫√∞∂∇∈∉⊂⊆∪∩→←↦…,.;:!'′″/\\^_~∣⊤"
)
STYLES = ("ITALIC", "BOLD", "BOLD ITALIC")
# Letters whose mathematical italic form lives outside the Mathematical Alphanumeric Symbols block.
HOLES = {("ITALIC", "SMALL H"): "\u210e"}

_MATH = re.compile(r"<math\b.*?</math>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")

_characters: dict[str, set[str]] = {}  # page src_uri -> the characters of its formulas
_dirty = False  # mkdocs serve --dirty: a rebuild writes only some pages; the others keep theirs


def math_characters(page_html: str) -> set[str]:
    """The characters inside the ``<math>`` elements of a page."""
    return {ch for formula in _MATH.findall(page_html) for ch in html.unescape(_TAG.sub("", formula))}


def styled_forms(characters: set[str]) -> set[str]:
    """The mathematical italic, bold and bold italic code points of the letters and letter-like
    symbols in ``characters`` (a, α, ϵ, ϑ, ∂, ∇, dotless i: what a browser may draw in their place)."""
    forms = set()
    for ch in characters:
        name = unicodedata.name(ch, "")
        rest = re.sub(r"^(?:LATIN|GREEK) ", "", name).replace("LETTER ", "").replace("LUNATE ", "")
        if not rest or rest.startswith("DIGIT") or not (ch.isalpha() or name in ("PARTIAL DIFFERENTIAL", "NABLA")):
            continue
        for style in STYLES:
            try:
                forms.add(unicodedata.lookup(f"MATHEMATICAL {style} {rest}"))
            except KeyError:
                if (style, rest) in HOLES:
                    forms.add(HOLES[(style, rest)])
    return forms


def subset_font(source: Path, characters: set[str]) -> bytes:
    """``source`` with only the glyphs ``characters`` need (and what the MATH and layout tables reach)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.flavor = "woff"  # zlib: no brotli needed, and every browser reads it
    font = TTFont(str(source), recalcTimestamp=False)  # the head table keeps its date: same input, same bytes
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(characters)))
    subsetter.subset(font)
    font.flavor = "woff"
    out = io.BytesIO()
    font.save(out, reorderTables=True)
    return out.getvalue()


def on_startup(command, dirty):
    global _dirty
    _dirty = dirty


def on_pre_build(config):
    if not _dirty:
        _characters.clear()


def on_post_page(output: str, page, config) -> str:
    _characters[page.file.src_uri] = math_characters(output)
    return output


def cached_subset(source: Path, characters: set[str], cache_dir: Path) -> bytes:
    """``subset_font``, kept in ``cache_dir`` under a hash of the font, the characters and fontTools'
    version (cutting takes a second or two; most rebuilds change no formula)."""
    import fontTools

    key = hashlib.sha256(
        source.read_bytes() + "".join(sorted(characters)).encode() + fontTools.version.encode()
    ).hexdigest()
    cached = cache_dir / f"{key[:32]}.woff"
    if cached.is_file():
        return cached.read_bytes()
    data = subset_font(source, characters)
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(cached)
    return data


def on_post_build(config):
    source = Path(config["docs_dir"]) / SOURCE
    characters = {ch for ch in set().union(*_characters.values()) | set(BASE) if not ch.isspace() or ch == " "}
    characters |= styled_forms(characters)
    cache_dir = Path(config.config_file_path).resolve().parent / CACHE
    try:
        data = cached_subset(source, characters, cache_dir)
    except Exception as exc:  # fontTools raises many types for a missing or broken font
        raise PluginError(f"{source}: cannot cut the math font down to the site's formulas: {exc}") from exc
    target = Path(config["site_dir"]) / OUTPUT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
