"""Reading ties: malformed braces, names that are not names, ties where they would not render,
each refused at its file:line; a bad tie does not swallow the next one."""

from __future__ import annotations

import pytest
from snipkit import page_problems

from snipcheck.read.ties import replace_ties, tie_texts

RUN = '```python run="a.py"\n```\n\n'

# (page text, the line of the problem, what the message says)
REFUSED = [
    (RUN + "x {{ {{ 1 = x }} }}\n", 4, "a tie cannot hold another tie"),
    (RUN + "x {{{ 1 = x }}}\n", 4, "'{{{' is not a tie"),
    (RUN + "x {{ 1 = x }}} y\n", 4, "'}}}' closes no tie"),
    (RUN + "x {{1=x}}\n", 4, "put spaces around the operator"),
    (RUN + 'x {{ 1 = x["a"] }}\n', 4, "a name cannot hold a string"),
    (RUN + "x {{ 1 = x['a'] }}\n", 4, "a name cannot hold a string"),
    (RUN + "x {{ 1 = x.sum() }}\n", 4, "cannot read the name 'x.sum()'"),
    (RUN + "x {{ 1 = x[1:2] }}\n", 4, "index with integers"),
    (RUN + "x {{ 1 = ..:x }}\n", 4, "cannot read the snippet name"),
    (RUN + "x {{ about 5 = x }}\n", 4, "cannot read the documented value 'about 5'"),
    (RUN + "x {{ 5 or 6 = x }}\n", 4, "cannot read the documented value '5 or 6'"),
    (RUN + "x {{ [1, 2 = x }}\n", 4, "']' is missing"),
    (RUN + "x {{ 0x10 = x }}\n", 4, "cannot read the documented value '0x10'"),
    (RUN + "x {{ = x }}\n", 4, "both sides of '=' must be written"),
    (RUN + "x {{ 1 = }}\n", 4, "both sides of '=' must be written"),
    (RUN + "x {{ 1 @ }}\n", 4, "both sides of '@' must be written"),
    (RUN + "x {{ 1 = x\n", 4, "'{{' opens no tie (no '}}' on its line)"),
    (RUN + "see [the value {{ 1 = x }}](https://example.org)\n", 4, "inside link text"),
    (RUN + "![a {{ 1 = x }} plot](figures/a/f.svg)\n", 4, "inside link text"),
    (RUN + "[a](https://example.org/{{ 1 = x }})\n", 4, "inside a link's address"),
    (RUN + "[ref {{ 1 = x }}][1]\n", 4, "inside link text"),
    (RUN + "with \\( d = {{ 1 = x }} \\) here\n", 4, "inside math"),
    (RUN + "with $d_k = {{ 1 = x }}$ here\n", 4, "inside math"),
    (RUN + "\\[ d = {{ 1 = x }} \\]\n", 4, "inside display math"),
    (RUN + "$$\nd = {{ 1 = x }}\n$$\n", 5, "inside display math"),
    (RUN + "\\[\nd = {{ 1 = x }}\n\\]\n", 5, "inside display math"),
    (RUN + '<span title="{{ 1 = x }}">a</span>\n', 4, "inside an HTML tag"),
    (RUN + "<div>\n{{ 1 = x }}\n</div>\n", 5, "inside a raw HTML block"),
    (RUN + "<table><tr><td>{{ 1 = x }}</td></tr></table>\n", 4, "inside a raw HTML block"),
    (RUN + "prose\n\n    {{ 1 = x }} indented by mistake\n", 6, "in an indented code block"),
    (RUN + '!!! note "Costs {{ 1 = x }}"\n    body\n', 4, "in an admonition or tab title"),
    (RUN + '=== "Tab {{ 1 = x }}"\n    body\n', 4, "in an admonition or tab title"),
    ('---\ntitle: "{{ 1 = a:x }}"\n---\n# T\n', 2, "in the front matter"),
    (RUN + "x {{ 5..3 ~ x }}\n", 4, "the range '5..3' is empty"),
    (RUN + "x {{ a..5 ~ x }}\n", 4, "'a' is not a number"),
    (RUN + "x {{ 3 ~ x }}\n", 4, "cannot read the range '3'"),
    (RUN + "x {{ 1..nan ~ x }}\n", 4, "'nan' is not a number"),
    (RUN + 'x {{ 3..5 ~ x["a"] }}\n', 4, "a name cannot hold a string"),
    ("x {{ 1 = x }}\n", 1, "has no run block above it"),
    ('```python run="../attn/core.py"\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run="/etc/passwd"\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run="sub/../../x.py"\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run=""\n```\n', 1, "must name a file inside the snippets folder"),
    ('```python run="a.py" timeout=0\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=-5\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=nan\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=inf\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" timeout=1e400\n```\n', 1, "timeout must be a positive number of seconds"),
    ('```python run="a.py" memory=lots\n```\n', 1, "memory must be a whole number of MiB"),
    ('```python run="a.py" memory=0\n```\n', 1, "memory must be a whole number of MiB"),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("text", "line", "message"), REFUSED)
def test_a_malformed_or_misplaced_tie_is_refused_at_its_line(text, line, message):
    problems = page_problems(text)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"docs/p.md:{line}: ") and message in problems[0], problems


# Pages that must parse without a problem, and the ties they hold as (line, documented).
ACCEPTED = [
    (RUN + "costs $5 and {{ 1 = x }} and $6\n", [(4, "1")]),  # not math for arithmatex
    (RUN + "{{ 1 = a }} and {{ 2 = b }}\n", [(4, "1"), (4, "2")]),
    (RUN + '!!! note "Title"\n    body with {{ 1 = x }}\n', [(5, "1")]),
    (RUN + "!!! note\n\n    body with {{ 1 = x }}\n", [(6, "1")]),
    (RUN + "- item\n\n    continued {{ 1 = x }}\n", [(6, "1")]),
    (RUN + "<div markdown>\n{{ 1 = x }}\n</div>\n", [(5, "1")]),
    (RUN + "a `{{ 1 = x }}` code span is text\n", []),
    (RUN + "```text\n{{ 1 = x }} in a fenced block is code\n```\n", []),
    (RUN + "# Heading {{ 1 = x }}\n", [(4, "1")]),
    (RUN + "| a | b |\n| - | - |\n| {{ 1 = x }} | {{ 2 @ A | B }} |\n", [(6, "1"), (6, "2")]),
    (RUN + "<!-- {{ 1 = x }} in a comment -->\n", []),
    (RUN + "[link](u) then {{ 1 = x }}\n", [(4, "1")]),
    (RUN + "a \\$5 and {{ 1 = x }}\n", [(4, "1")]),
]


@pytest.mark.hostile
@pytest.mark.parametrize(("text", "ties"), ACCEPTED)
def test_a_tie_where_it_renders_is_read(text, ties):
    from snipcheck.read.page import parse

    doc = parse(text, "docs/p.md")
    assert [str(p) for p in doc.problems] == []
    assert [(t.line, t.documented) for t in doc.ties] == ties


@pytest.mark.hostile
def test_a_bad_tie_does_not_swallow_the_next_one_on_its_line():
    from snipcheck.read.page import parse

    doc = parse(RUN + "{{ bad }} and {{ 2 = b }}\n", "docs/p.md")
    assert [str(p) for p in doc.problems] == [
        "docs/p.md:4: cannot read '{{ bad }}': write {{ NUMBER = NAME }}, {{ NUMBER @ SOURCE }} or {{ LOW..HIGH ~ NAME }}"
    ]
    assert [(t.documented, t.ref.expr) for t in doc.ties] == [("2", "b")]


# -- the ledger ---------------------------------------------------------------------------------------


# (text, the ties tie_texts reads in it: (documented, operator, reference))
AS_WRITTEN = [
    ("d_k = {{ 64 = d_k }} and {{ 0.1 @ Vaswani et al. (2017) }}", [("64", "=", "d_k"), ("0.1", "@", "Vaswani et al. (2017)")]),
    ("a range {{ 3..5 ~ 11_gqa:g }}\nnext line {{ [8, 2, 1] = groups }}", [("3..5", "~", "11_gqa:g"), ("[8, 2, 1]", "=", "groups")]),
    ("no operator {{1=x}}, no value {{ = x }}, three braces {{{ 1 = x }}}", []),
    ("{{ 1 = x", []),
    ("plain prose", []),
]


@pytest.mark.parametrize(("text", "expected"), AS_WRITTEN)
def test_tie_texts_reads_what_the_checker_reads(text, expected):
    found = tie_texts(text)
    assert [(t.documented, t.op, t.ref) for t in found] == expected
    assert [text[t.start : t.end].startswith("{{") and text[t.start : t.end].endswith("}}") for t in found] == [True] * len(found)


def test_replace_ties_keeps_the_text_around_each_tie():
    text = "A {{ 1 = x }} and {{ 2.5 = y }}, then {{ broken."
    assert replace_ties(text, lambda t: f"<{t.documented}>") == "A <1> and <2.5>, then {{ broken."
