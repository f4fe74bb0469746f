"""hooks/mathfont.py: the math font covers every page, also after a dirty rebuild."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("dirty", [False, True])
def test_the_math_font_covers_the_pages_a_dirty_rebuild_did_not_write(dirty, load_hook):
    """hooks/mathfont.py cuts the font to the characters of the pages written. A whole build
    starts afresh; under ``mkdocs serve --dirty`` a rebuild writes only the changed pages, and the
    characters of the others must stay."""
    mathfont = load_hook("mathfont")

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
