"""hooks/codewrap.py: each indented code line carries its indentation, for wrapping on a phone."""

from __future__ import annotations

import re

import markdown
import pytest


@pytest.fixture(scope="module")
def codewrap(load_hook):
    return load_hook("codewrap")


def _highlighted(code: str) -> str:
    """``code`` as the site's Markdown turns a fence into HTML (one span per line)."""
    return markdown.markdown(
        f"```python\n{code}```\n",
        extensions=["pymdownx.highlight", "pymdownx.superfences"],
        extension_configs={"pymdownx.highlight": {"anchor_linenums": True, "line_spans": "__span"}},
    )


CODE = 'def f(x):\n    for i in range(3):\n        x = x + "&<>"  # (n, d_k)\n\n    return x\n'


def test_each_indented_line_carries_its_indentation_and_the_text_is_unchanged(codewrap):
    page = _highlighted(CODE)
    marked = codewrap.mark_indentation(page)
    assert [int(n) for n in re.findall(r"--code-indent: (\d+)ch", marked)] == [4, 8, 4]
    assert codewrap.TAG.sub("", marked) == codewrap.TAG.sub("", page)  # what a reader reads or copies
    assert marked.count('<span id="__span-') == page.count('<span id="__span-') == 5


@pytest.mark.parametrize(
    ("line_html", "spaces"),
    [
        ('<a id="__codelineno-0-1"></a><span class="k">def</span>', 0),
        ('<a id="__codelineno-0-2"></a>    <span class="n">x</span>', 4),
        ('<a id="__codelineno-0-3"></a><span class="w">        </span><span class="n">y</span>', 8),
        ("&nbsp;&lt;x", 0),  # an entity is one character, and a no-break space is not indentation
        ("      ", 6),  # a line of spaces only
    ],
    ids=["none", "text", "whitespace token", "entities", "blank"],
)
def test_indentation_counts_leading_spaces_of_the_text(codewrap, line_html, spaces):
    assert codewrap.indentation(line_html) == spaces


def test_a_page_without_line_spans_is_left_as_it_is(codewrap):
    page = '<pre><code>    x = 1\n</code></pre><span id="other">  y\n</span>'
    assert codewrap.mark_indentation(page) == page
