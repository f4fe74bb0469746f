"""hooks/socialcard.py: the Open Graph image of each page, drawn at build time."""

from __future__ import annotations


def test_a_social_card_is_a_1200_by_630_png_the_same_words_give_the_same_bytes(load_hook, tmp_path):
    import io

    from PIL import Image

    socialcard = load_hook("socialcard")
    first = socialcard.cached_card(tmp_path, "Site", "04 Why scale by √d_k", "Why scores are divided. " * 8)
    assert socialcard.draw_card("Site", "04 Why scale by √d_k", "Why scores are divided. " * 8) == first
    assert len(list(tmp_path.glob("*.png"))) == 1  # kept: a warm build draws none
    with Image.open(io.BytesIO(first)) as image:
        assert image.format == "PNG" and image.size == (1200, 630)
        assert len(image.getcolors(256)) > 2  # words drawn on the background, not a blank card
    assert socialcard.cached_card(tmp_path, "Site", "Another title", "") != first
    assert socialcard.card_path("notebooks/01-x.ipynb") == "assets/social/notebooks/01-x.png"
