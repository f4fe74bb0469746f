"""What is read out of a snippet's source, kept between builds: the same answers as reading it,
read again when the text, the checker's code or Python changed, or the file is unreadable."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from snipcheck import kept
from snipcheck.read.cells import split_cells
from snipcheck.report.notebook import _imports_of
from snipcheck.report.verification import _asserts

SNIPPETS = sorted((Path(__file__).resolve().parents[2] / "snippets").glob("*.py"))
_names = itertools.count()


@pytest.fixture
def folder(tmp_path):
    kept.keep_in(tmp_path)
    yield tmp_path
    kept.keep_in(None)


def _counting(name: str):
    """A function of a text kept under ``name``, and the texts it was called with (each decoration
    stands for a new process: its memory is empty, the file is what it finds)."""
    kept._tables.pop(name, None)
    calls = []

    @kept.by_text(name, encode=list, decode=tuple)
    def words(text: str) -> tuple[str, ...]:
        calls.append(text)
        return tuple(text.split())

    return words, calls


def test_an_answer_is_kept_for_the_next_process(folder):
    name = f"words{next(_names)}"
    words, calls = _counting(name)
    assert words("a b") == ("a", "b") and words("a b") == ("a", "b") and calls == ["a b"]
    again, calls = _counting(name)
    assert again("a b") == ("a", "b") and calls == []
    assert json.loads((folder / f"{name}.json").read_text())["code"] == kept.code_fingerprint()


def test_a_changed_text_is_read(folder):
    name = f"words{next(_names)}"
    _counting(name)[0]("a b")
    again, calls = _counting(name)
    assert again("a b c") == ("a", "b", "c") and calls == ["a b c"]


def test_answers_of_other_code_or_another_python_are_not_read(folder, monkeypatch):
    name = f"words{next(_names)}"
    _counting(name)[0]("a b")
    monkeypatch.setattr(kept, "code_fingerprint", lambda: "another checker, or another Python")
    kept.keep_in(None)
    kept.keep_in(folder)  # read the file again
    again, calls = _counting(name)
    assert again("a b") == ("a", "b") and calls == ["a b"]


def test_the_fingerprint_covers_the_package_and_python(monkeypatch):
    fingerprint = kept.code_fingerprint.__wrapped__
    before = fingerprint()
    monkeypatch.setattr(kept.sys, "version", "3.99.0 (another)")
    assert fingerprint() != before
    monkeypatch.undo()
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: real(self) + (b"# edited" if self.name == "cells.py" else b""))
    assert fingerprint() != before


@pytest.mark.parametrize("content", ["not JSON", "[]", '{"code": "x", "answers": []}'])
def test_a_file_that_cannot_be_read_is_made_again(folder, content):
    name = f"words{next(_names)}"
    (folder / f"{name}.json").write_text(content)
    words, calls = _counting(name)
    assert words("a") == ("a",) and calls == ["a"]
    assert _counting(name)[0]("a") == ("a",)


def test_a_malformed_answer_is_computed_again(folder):
    name = f"words{next(_names)}"
    words, _ = _counting(name)
    words("a")
    path = folder / f"{name}.json"
    data = json.loads(path.read_text())
    data["answers"] = {key: 7 for key in data["answers"]}  # not a list: tuple() refuses it
    path.write_text(json.dumps(data))
    kept.keep_in(None)
    kept.keep_in(folder)
    again, calls = _counting(name)
    assert again("a") == ("a",) and calls == ["a"]


def test_without_a_folder_nothing_is_written(tmp_path):
    kept.keep_in(None)
    words, calls = _counting(f"words{next(_names)}")
    assert words("a") == ("a",) and calls == ["a"] and list(tmp_path.iterdir()) == []


def test_answers_no_longer_looked_up_are_dropped_once_they_are_many(folder):
    name = f"words{next(_names)}"
    words, _ = _counting(name)
    for i in range(100):
        words(f"old {i}")
    again, _ = _counting(name)
    kept.keep_in(None)
    kept.keep_in(folder)
    again("new")  # a process that looks up one text, among 100 others: only it is kept
    assert len(json.loads((folder / f"{name}.json").read_text())["answers"]) == 1


def test_dropping_old_answers_keeps_a_text_another_thread_is_still_reading(folder):
    """Builds read sources in several threads: a text looked up and not yet answered when
    another answer is written (and old answers dropped) is neither lost nor a KeyError."""
    name = f"words{next(_names)}"
    words, _ = _counting(name)
    for i in range(100):
        words(f"old {i}")
    kept._tables[name].used = {"looked up by another thread, not answered yet"}
    words("new")
    assert len(json.loads((folder / f"{name}.json").read_text())["answers"]) == 1


@pytest.mark.parametrize("function", [split_cells, _imports_of, _asserts], ids=lambda f: f.__name__)
def test_the_kept_answer_for_every_snippet_is_what_reading_it_gives(function):
    """Each answer, written as JSON and read back, is the answer."""
    encode, decode = function.codec
    assert SNIPPETS
    for path in SNIPPETS:
        answer = function.__wrapped__(path.read_text(encoding="utf-8"))
        assert decode(json.loads(json.dumps(encode(answer)))) == answer, path.name


def test_write_whole_replaces_the_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "deeper" / "entry.json"
    kept.write_whole(path, "first")
    kept.write_whole(path, "second")
    assert path.read_text(encoding="utf-8") == "second"
    assert [p.name for p in path.parent.iterdir()] == ["entry.json"]


@pytest.mark.hostile
def test_write_whole_into_an_unwritable_place_keeps_nothing_and_raises_nothing(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    kept.write_whole(blocker / "entry.json", "lost")  # its folder cannot be made
    assert blocker.read_text(encoding="utf-8") == "not a folder"
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]
