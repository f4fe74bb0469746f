"""The command line against hostile input: the wrong folder fails instead of reporting
"0 snippets run", and every Markdown suffix MkDocs reads is checked."""

from __future__ import annotations

import pytest

from snipcheck.cli import main


@pytest.mark.hostile
@pytest.mark.parametrize(("setup", "message"), [
    (lambda root: None, "there is no docs folder at"),
    (lambda root: (root / "docs").mkdir(), "no Markdown page in"),
    (lambda root: ((root / "docs").mkdir(), (root / "docs" / "notes.txt").write_text("{{ 1 = x }}")), "no Markdown page in"),
])
@pytest.mark.parametrize("command", ["check", "accept"])
def test_the_wrong_folder_fails_with_a_message(tmp_path, capsys, setup, message, command):
    setup(tmp_path)
    assert main([command, "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "0 snippets run" not in err


@pytest.mark.hostile
@pytest.mark.parametrize("suffix", [".markdown", ".mdown", ".mkd", ".MD"])
def test_pages_with_every_markdown_suffix_mkdocs_reads_are_checked(project, capsys, suffix):
    project.page(f"p{suffix}", '```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 2\n")
    assert main(["check", "--root", str(project.root)]) == 1
    assert f"docs/p{suffix}:4: documented 1, computed x = 2 (snippets/s.py)" in capsys.readouterr().err
