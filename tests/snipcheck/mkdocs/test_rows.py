"""The verification page's row tables: set aside from Markdown, put back as written, with their
anchors; the anchors of each block kept between builds while the block is the same."""

from __future__ import annotations

import pytest

from snipcheck.mkdocs import rows as rows_module
from snipcheck.mkdocs.rows import ANCHORS, RowsLost, SetAsideRows


def _block(anchor: str, text: str = "a row") -> str:
    return f'<details class="snipcheck-rows">\n<summary>{text}</summary>\n<span id="{anchor}"></span><a name="n-{anchor}">x</a>\n</details>'


def _page(*blocks: str) -> str:
    return "# Verification\n\nSome text.\n\n" + "\n\nBetween.\n\n".join(blocks) + "\n\nThe end.\n"


def _markdown(text: str) -> str:
    """What Markdown does to the page, as far as the placeholders go: keeps them."""
    return "<p>" + text.replace("\n\n", "</p>\n<p>") + "</p>"


@pytest.fixture
def reads(monkeypatch):
    """The blocks whose anchors were read out of their HTML."""
    read = []
    real = rows_module.anchors
    monkeypatch.setattr(rows_module, "anchors", lambda html: read.append(html) or real(html))
    return read


def _put_back(folder, page: str) -> tuple[str, set[str]]:
    rows = SetAsideRows(folder)
    body = rows.set_aside(page)
    assert "snipcheck-rows" not in body.replace("<!-- snipcheck-rows", "")
    return rows.put_back(_markdown(body))


def test_rows_come_back_as_written_with_their_anchors(tmp_path, reads):
    html, found = _put_back(None, _page(_block("a"), _block("b")))
    assert _block("a") in html and _block("b") in html
    assert found == {"a", "n-a", "b", "n-b"} and len(reads) == 2


def test_a_lost_placeholder_fails():
    rows = SetAsideRows()
    rows.set_aside(_page(_block("a")))
    with pytest.raises(RowsLost):
        rows.put_back("<p>nothing</p>")


def test_the_anchors_of_an_unchanged_block_are_kept(tmp_path, reads):
    page = _page(_block("a"), _block("b"))
    first = _put_back(tmp_path, page)
    assert (tmp_path / ANCHORS).is_file() and len(reads) == 2
    assert _put_back(tmp_path, page) == first and len(reads) == 2  # nothing read again


def test_a_changed_block_is_read_again_and_only_it(tmp_path, reads):
    _put_back(tmp_path, _page(_block("a"), _block("b")))
    reads.clear()
    html, found = _put_back(tmp_path, _page(_block("a"), _block("c", "a row, measured again")))
    assert found == {"a", "n-a", "c", "n-c"} and reads == [_block("c", "a row, measured again")]


def test_an_edit_of_the_module_reads_every_block_again(tmp_path, reads, monkeypatch):
    page = _page(_block("a"), _block("b"))
    _put_back(tmp_path, page)
    reads.clear()
    monkeypatch.setattr(rows_module, "_FINGERPRINT", "another source or Python")
    assert _put_back(tmp_path, page)[1] == {"a", "n-a", "b", "n-b"} and len(reads) == 2


@pytest.mark.parametrize("kept", ["not JSON", "[1, 2]", '{"key": "not a list"}'])
def test_a_kept_file_that_cannot_be_read_is_made_again(tmp_path, reads, kept):
    (tmp_path / ANCHORS).write_text(kept)
    assert _put_back(tmp_path, _page(_block("a")))[1] == {"a", "n-a"} and len(reads) == 1
    assert _put_back(tmp_path, _page(_block("a")))[1] == {"a", "n-a"} and len(reads) == 1
