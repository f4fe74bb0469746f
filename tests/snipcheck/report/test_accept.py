"""Accepting an intended change rewrites documented values only, and shows the diff.

Hostile accept: it writes what drifted and nothing else, never loses a byte, writes every page
or none, and exits non-zero while anything remains."""

from __future__ import annotations

import os

import pytest

from snipcheck import accepted_text
from snipcheck.cli import main
from snipcheck.report import accept as accept_module
from snipcheck.report.accept import unified_diff

PAGE = """# P

Some prose with 7 typed words.

```python run="one.py"
```

```output
weights: [0.100 0.900]
```

The first weight is {{ 0.10 = w[0] }}, the list {{ [0.1, 0.9] = w }}; quoted {{ 27.3 @ a paper }}.
"""


def test_accept_rewrites_drifted_values_and_nothing_else(project):
    project.page("p.md", PAGE)
    project.snippet("one.py", 'w = [0.2482, 0.7518]\nprint("weights: [" + " ".join(f"{x:.3f}" for x in w) + "]")\n')
    build = project.build()
    doc = build.docs["p.md"]
    after = accepted_text(doc, build)
    assert after == PAGE.replace("[0.100 0.900]", "[0.248 0.752]").replace("{{ 0.10 =", "{{ 0.25 =").replace("[0.1, 0.9] = w", "[0.2, 0.8] = w")
    diff = unified_diff("docs/p.md", doc.text, after)
    changed = [line for line in diff.splitlines()[2:] if line[:1] in "+-"]
    assert len(changed) == 4  # two lines out, two lines in


def test_accept_command_writes_pages_then_check_passes(project, capsys):
    project.page("p.md", PAGE)
    project.snippet("one.py", 'w = [0.2482, 0.7518]\nprint("weights: [" + " ".join(f"{x:.3f}" for x in w) + "]")\n')
    assert main(["check", "--root", str(project.root)]) == 1
    assert main(["accept", "--root", str(project.root)]) == 0
    assert "+weights: [0.248 0.752]" in capsys.readouterr().out
    assert main(["check", "--root", str(project.root)]) == 0


RUN = '# P\n\n```python run="s.py"\n```\n\n'


def _accept(project, capsys) -> tuple[int, str, str]:
    code = main(["accept", "--root", str(project.root)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# (documented tie, snippet, the tie after accept)
REWRITES = [
    ("{{ 20,000 = n }}", "n = 20001\n", "{{ 20,001 = n }}"),
    ("{{ True = f }}", "f = False\n", "{{ False = f }}"),
    ("{{ 256 = n }}", "n = 300\n", "{{ 300 = n }}"),
    ("{{ 2 = x }}", "x = 2.5\n", "{{ 2.5 = x }}"),
    ("{{ 0.25 = x }}", "x = 0.7512\n", "{{ 0.75 = x }}"),
    ("{{ [1, 2] = v }}", "v = [1, 2, 3]\n", "{{ [1, 2, 3] = v }}"),
    ("{{ (4, 8) = x.shape }}", "import numpy as np\nx = np.zeros((4, 9))\n", "{{ (4, 9) = x.shape }}"),
    ("{{ [1., 0.802] = v }}", "v = [0.5, 0.802]\n", "{{ [0.500, 0.802] = v }}"),
    ("{{ \u22120.5 = x }}", "x = -0.75\n", "{{ -0.8 = x }}"),
    ("{{ 0.5+1.2j = z }}", "z = 0.5 + 1.9j\n", "{{ 0.5+1.9j = z }}"),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("tie", "snippet", "after"), REWRITES)
def test_accept_writes_the_computed_value_in_the_documented_style(project, capsys, tie, snippet, after):
    project.page("p.md", RUN + f"It is {tie}.\n")
    project.snippet("s.py", snippet)
    code, out, err = _accept(project, capsys)
    assert (project.root / "docs" / "p.md").read_text() == RUN + f"It is {after}.\n"
    assert code == 0, err
    assert main(["check", "--root", str(project.root)]) == 0


@pytest.mark.hostile
def test_accept_exits_non_zero_while_a_problem_remains(project, capsys):
    project.page("p.md", RUN + "It is {{ 1 = x }}; missing {{ 2 = nothing }}.\n")
    project.snippet("s.py", "x = 2\n")
    code, _, err = _accept(project, capsys)
    assert code == 1
    assert "docs/p.md:6: the snippet defines no number or array named 'nothing'" in err
    assert "{{ 2 = x }}" in (project.root / "docs" / "p.md").read_text()


@pytest.mark.hostile
def test_accept_never_rewrites_a_range_and_says_it_remains(project, capsys):
    page = '```python run="t.py" live\n```\n\nGrows {{ 3..5 ~ g }}.\n'
    project.page("p.md", page)
    project.snippet("t.py", "g = 6.8\n")
    code, _, err = _accept(project, capsys)
    assert code == 1 and "docs/p.md:4: documented 3..5, measured 6.8 (snippets/t.py)" in err
    assert (project.root / "docs" / "p.md").read_text() == page


@pytest.mark.hostile
def test_accept_lengthens_a_fence_the_new_output_contains(project, capsys):
    project.page("p.md", RUN + "```output\nold\n```\n\nAfter.\n")
    project.snippet("s.py", "print('a fence:')\nprint('```')\nprint('inside')\n")
    code, _, err = _accept(project, capsys)
    assert code == 0, err
    assert (project.root / "docs" / "p.md").read_text() == RUN + "````output\na fence:\n```\ninside\n````\n\nAfter.\n"


@pytest.mark.hostile
def test_accept_keeps_crlf_line_endings(project, capsys):
    page = (RUN + "```output\n0.5\n```\n\nIt is {{ 0.5 = x }}.\n").replace("\n", "\r\n")
    (project.root / "docs" / "p.md").write_bytes(page.encode())
    project.snippet("s.py", "x = 0.75\nprint(x)\n")
    code, _, err = _accept(project, capsys)
    assert code == 0, err
    data = (project.root / "docs" / "p.md").read_bytes()
    assert data == page.replace("0.5", "0.8").replace("```output\r\n0.8", "```output\r\n0.75").encode()
    assert b"\n" not in data.replace(b"\r\n", b"")


@pytest.mark.hostile
def test_accept_keeps_a_byte_order_mark(project, capsys):
    (project.root / "docs" / "p.md").write_bytes(b"\xef\xbb\xbf" + (RUN + "It is {{ 1 = x }}.\n").encode())
    project.snippet("s.py", "x = 2\n")
    assert _accept(project, capsys)[0] == 0
    assert (project.root / "docs" / "p.md").read_bytes() == b"\xef\xbb\xbf" + (RUN + "It is {{ 2 = x }}.\n").encode()


@pytest.mark.hostile
def test_accept_writes_all_pages_or_none_when_one_is_read_only(project, capsys):
    project.page("a.md", RUN + "It is {{ 1 = x }}.\n")
    project.page("b.md", RUN + "It is {{ 1 = x }}.\n")
    project.snippet("s.py", "x = 2\n")
    os.chmod(project.root / "docs" / "b.md", 0o444)
    code, _, err = _accept(project, capsys)
    assert code == 2
    assert "nothing was written" in err and "b.md: the page is read-only" in err
    assert "{{ 1 = x }}" in (project.root / "docs" / "a.md").read_text()
    assert sorted(p.name for p in (project.root / "docs").iterdir()) == ["a.md", "b.md"]  # no temporary file left
    assert not any(p.name.startswith(".") for p in (project.root / "docs").iterdir())


@pytest.mark.hostile
def test_accept_refuses_a_page_changed_since_it_was_read(project, tmp_path):
    page = project.page("p.md", "text\n")
    write = accept_module.PageWrite(page, b"what was read\n", b"new\n")
    with pytest.raises(accept_module.WriteRefused, match="changed since it was read"):
        accept_module.write_all([write])
    assert page.read_text() == "text\n"


@pytest.mark.hostile
def test_accept_restores_every_page_if_a_rename_fails_midway(project, monkeypatch):
    a = project.page("a.md", "a\n")
    b = project.page("b.md", "b\n")
    real = os.replace
    calls = []

    def flaky(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(src, dst)

    monkeypatch.setattr(accept_module.os, "replace", flaky)
    writes = [accept_module.PageWrite(a, b"a\n", b"A\n"), accept_module.PageWrite(b, b"b\n", b"B\n")]
    with pytest.raises(accept_module.WriteRefused, match="restored"):
        accept_module.write_all(writes)
    assert (a.read_text(), b.read_text()) == ("a\n", "b\n")
    assert sorted(p.name for p in a.parent.iterdir()) == ["a.md", "b.md"]
