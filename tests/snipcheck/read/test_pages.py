"""Hostile encodings: bytes that are not UTF-8 are named with their file, and line numbers count
only the line breaks MkDocs counts (not U+2028, U+0085 or a form feed)."""

from __future__ import annotations

import pytest

from snipcheck.cli import main


@pytest.mark.hostile
def test_a_page_that_is_not_utf8_is_named_and_the_others_still_checked(project, capsys):
    (project.root / "docs" / "bad.md").write_bytes(b"# Bad\n\ncaf\xe9 {{ 1 = s:x }}\n")
    project.page("good.md", '```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 2\n")
    assert main(["check", "--root", str(project.root)]) == 1
    err = capsys.readouterr().err
    assert "docs/bad.md:3: the page is not UTF-8 (byte 0xe9 at offset 10): save it as UTF-8" in err
    assert "docs/good.md:4: documented 1, computed x = 2 (snippets/s.py)" in err


@pytest.mark.hostile
def test_a_snippet_that_is_not_utf8_is_named(project):
    project.page("p.md", '```python run="s.py"\n```\n')
    (project.root / "snippets" / "s.py").write_bytes(b"x = 1\ny = '\xff'\n")
    assert project.problems() == ["docs/p.md:1: snippets/s.py failed:\n    snippet file snippets/s.py is not UTF-8 (byte 0xff on line 2)"]


@pytest.mark.hostile
@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c"])
def test_line_numbers_count_only_real_line_breaks(project, separator):
    project.page("p.md", f'# P{separator}still line 1\n\n```python run="s.py"\n```\n\nIt is {{{{ 1 = x }}}}.\n')
    project.snippet("s.py", "x = 2\n")
    assert project.problems() == ["docs/p.md:6: documented 1, computed x = 2 (snippets/s.py)"]


@pytest.mark.hostile
@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_lone_cr_count_as_mkdocs_counts_them(project, newline):
    text = '# P\n\n```python run="s.py"\n```\n\n```output\n1\n2\n```\n\nIt is {{ 1 = x }}.\n'.replace("\n", newline)
    (project.root / "docs" / "p.md").write_bytes(text.encode())
    project.snippet("s.py", "x = 2\nprint(1)\nprint(3)\n")
    assert project.problems() == [
        "docs/p.md:8: documented 2, computed 3 (snippets/s.py)",
        "docs/p.md:11: documented 1, computed x = 2 (snippets/s.py)",
    ]


@pytest.mark.hostile
def test_a_byte_order_mark_is_not_text(project):
    (project.root / "docs" / "p.md").write_bytes(b"\xef\xbb\xbf" + b'```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 2\n")
    assert project.problems() == ["docs/p.md:4: documented 1, computed x = 2 (snippets/s.py)"]


@pytest.mark.hostile
def test_a_unicode_minus_printed_by_a_snippet_is_a_minus(project):
    project.page("p.md", '```python run="s.py"\n```\n\n```output\n-0.5\n```\n')
    project.snippet("s.py", "print('\\u22120.5')\n")
    assert project.problems() == []
    project.snippet("s.py", "print('0.5')\n")
    assert project.problems() == ["docs/p.md:5: documented -0.5, computed 0.5 (snippets/s.py)"]


@pytest.mark.hostile
def test_output_that_is_not_utf8_is_shown_not_crashed_on(project):
    project.page("p.md", '```python run="s.py"\n```\n\n```output\nok\n```\n')
    project.snippet("s.py", "import sys\nsys.stdout.buffer.write(b'\\xff\\n')\n")
    [problem] = project.problems()
    assert problem.startswith("docs/p.md:5: documented ok, computed \ufffd")
