"""Which lines open a code fence, as pymdownx.superfences decides (checked against superfences
itself: the same line rendered as code, or as a paragraph)."""

from __future__ import annotations

import re

import pytest

from snipcheck.read.syntax import opens_fence

# (the line, superfences takes it for a fence)
LINES = [
    ("```", True),
    ("```python", True),
    ("~~~", True),
    ("~~~ python", True),
    ("````text", True),
    ('```python title="a.py"', True),
    ('```python hl_lines="1 3-4"', True),
    ('```python linenums="1"', True),
    ("``` {.python #id}", True),
    ("```x``` is the variable; it holds {{ 4 = x }}", False),
    ("~~~ not a fence, only words", False),
    ("~~~python hello world", False),
    ("``` a`b", False),
    ("```python linenums=1", False),
    ('```python foo="1"', False),
    ('```python hl_lines="all"', False),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("line", "fence"), LINES)
def test_a_line_opens_a_fence_only_where_superfences_opens_one(line, fence):
    assert opens_fence(line) is fence


@pytest.mark.parametrize(("line", "fence"), LINES)
def test_the_table_agrees_with_superfences_itself(line, fence):
    markdown = pytest.importorskip("markdown")
    closing = re.match(r"`+|~+", line).group()
    html = markdown.markdown(f"{line}\nbody\n{closing}\n\nafter\n", extensions=["pymdownx.superfences", "attr_list"])
    assert ("<pre" in html) is fence, html
