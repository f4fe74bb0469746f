"""Reading pages: run blocks, output blocks, ties and figures, and the malformed ones."""

from __future__ import annotations

import pytest

from snipcheck.read.page import parse

PAGE = """# Title

```python run="a.py" timeout=5
```

```output
x 1
```

Tied {{ 0.5 = x }} and {{ [1, 2] = b:y[0] }}; quoted {{ 27.3 @ Vaswani et al. (2017) }}.
Not a tie: `{{ 1 = x }}`.

```python run="c.py" live
```

![A figure](figures/a/f.svg)
"""


def test_a_page_is_read_with_line_numbers():
    doc = parse(PAGE, "docs/p.md")
    assert doc.problems == []
    first, second = doc.runs
    assert (first.snippet, first.line, first.timeout, first.output.line, first.output.text) == ("a.py", 3, 5.0, 6, "x 1")
    assert (second.snippet, second.live, second.indent, second.output) == ("c.py", True, "", None)
    assert [(t.line, t.documented, t.op, getattr(t, "snippet", None), t.ref.expr if hasattr(t, "ref") else None) for t in doc.ties] == [
        (10, "0.5", "=", "a.py", "x"),
        (10, "[1, 2]", "=", "b.py", "y[0]"),
        (10, "27.3", "@", None, None),
    ]
    assert [(f.line, f.alt, f.src) for f in doc.figures] == [(16, "A figure", "figures/a/f.svg")]
    assert doc.snippets() == ["a.py", "c.py", "b.py"]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("```output\n1\n```\n", 1, "output block does not follow a run block"),
        ('```python run="a.py"\nprint(1)\n```\n', 1, "a run block must be empty"),
        ('```python run="a.py" fast\n```\n', 1, "unknown run option 'fast'"),
        ('```python run="a.py" timeout=soon\n```\n', 1, "timeout must be a positive number of seconds"),
        ("text\n\n{{ 1 = x }}\n", 3, "has no run block above it"),
        ('```python run="a.py"\n```\n\n{{ 1 = x + 1 }}\n', 4, "cannot read the name 'x + 1'"),
        ("a {{ nothing }} here\n", 1, "cannot read '{{ nothing }}': write {{ NUMBER = NAME }}"),
        ("```python\nprint(1)\n", 1, "never closed"),
        ('```python run="a.py"\n```\n\nprose\n\n```output\n1\n```\n', 6, "does not follow a run block"),
        ('```python run="a.py"\n```\n\nWith $d_k = {{ 2 = d_k }}$ we\n', 4, "a tie inside math, where it would not render"),
        ('```python run="a.py"\n```\n\n$$\nx = {{ 2 = d_k }}\n$$\n', 5, "a tie inside display math, where it would not render"),
    ],
)
def test_malformed_pages_are_reported_at_their_line(text, line, message):
    problems = parse(text, "docs/p.md").problems
    assert len(problems) == 1
    assert problems[0].line == line
    assert message in problems[0].message
    assert str(problems[0]).startswith(f"docs/p.md:{line}: ")


def test_a_run_block_may_name_one_cell_of_its_snippet():
    from snipcheck import parse

    doc = parse('```python run="a.py" cell="model" timeout=5\n```\n\n```python run="a.py"\n```\n', "docs/p.md")
    assert [(run.snippet, run.cell, run.timeout) for run in doc.runs] == [("a.py", "model", 5.0), ("a.py", None, None)]
    assert doc.problems == []


# -- what Markdown renders as prose, the reader reads as prose ------------------------------------
# Each page's tie states 4 where the snippet computes 5: read as prose, it is a drift at its line;
# read as code or skipped, it would pass with nothing checked and show as written on the page.
PROSE_THAT_LOOKS_LIKE_CODE = [
    ("```x``` is the variable; it holds {{ 4 = x }}\n", 4),
    ("````x```` is the variable; it holds {{ 4 = x }}\n", 4),
    ("~~~ not a fence, it holds {{ 4 = x }}\n", 4),
    ("~~~python hello world\nit holds {{ 4 = x }}\n", 5),
    ("a \\`{{ 4 = x }}\\` between escaped backticks\n", 4),
    ('<p markdown="1">It holds {{ 4 = x }}</p>\n', 4),
    ('<div markdown="1">It holds {{ 4 = x }}</div>\n', 4),
    ("```\ncode\n````\nstill code\n```\n\nafter the fence {{ 4 = x }}\n", 10),
    ("> ```\n> {{ 1 = x }} is code in a quote\n> ```\n\nand {{ 4 = x }}\n", 8),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("text", "line"), PROSE_THAT_LOOKS_LIKE_CODE)
def test_a_tie_markdown_renders_as_prose_is_checked(project, capsys, text, line):
    from snipcheck.cli import main

    project.snippet("a.py", "x = 5\n")
    project.page("p.md", '```python run="a.py"\n```\n\n' + text)
    assert main(["check", "--root", str(project.root)]) == 1
    err = capsys.readouterr().err
    assert f"docs/p.md:{line}: documented 4, computed x = 5 (snippets/a.py)" in err, err
    assert "1 numbers checked" in err, err


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("*[HTML]: Hyper Text {{ 4 = x }}\n\nHTML\n", 4, "a tie in an abbreviation's definition, which shows only as a tooltip"),
        ("<center>{{ 4 = x }}</center>\n", 4, "a tie inside a raw HTML block, which Markdown does not render"),
        ("<details>\n<summary>{{ 4 = x }}</summary>\n</details>\n", 5, "a tie inside a raw HTML block, which Markdown does not render"),
        ("- item\n\n        {{ 4 = x }} is code inside the list item\n", 6, "a tie in an indented code block"),
    ],
)
def test_a_tie_markdown_does_not_render_as_prose_is_refused(text, line, message):
    problems = parse('```python run="a.py"\n```\n\n' + text, "docs/p.md").problems
    assert [str(p) for p in problems] == [f"docs/p.md:{line}: {problems[0].message}"] and message in problems[0].message
