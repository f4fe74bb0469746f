"""toolchain/claims_ledger.py: the reader of the claims ledger, on small pages and hostile Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest
from claims_ledger import ABSOLUTES, ledger_problems, normalise, read_ledger, read_page

ROOT = Path(__file__).resolve().parents[2]

PAGE = """# A page

```python run="01_demo.py"
```

```output
row sums: [1. 1.]
same as the library: True
```

Every row sums to {{ 1 = row_sums[0] }}, as the output shows.
The paper says so (Vaswani et al. 2017, section 3.2.1), and it is only a demo.

- A list item that is never wrong.

See [section 04](04-why-scale.md#the-argument) for more.
"""


def problems_with(claims, page=PAGE):
    return ledger_problems(page, "docs/demo.md", claims, ROOT)


def test_a_complete_ledger_passes():
    claims = [
        {
            "says": "Every row sums to 1",
            "checks": ["01_demo:row_sums[0]"],
            "outputs": ["01_demo: same as the library: True"],
        },
        {"says": "and it is only a demo", "cite": "section 3.2.1"},
        {"says": "A list item that is never wrong.", "scope": "a demonstration"},
        {"says": "See section 04 for more.", "page": "04-why-scale.md"},
    ]
    assert problems_with(claims) == []


def test_an_absolute_outside_every_claim_is_reported_with_its_line():
    claims = [{"says": "Every row sums to 1", "checks": ["01_demo:row_sums[0]"]}]
    problems = problems_with(claims)
    assert any(p.startswith("docs/demo.md:12: 'only'") for p in problems), problems
    assert any(p.startswith("docs/demo.md:14: 'never'") for p in problems), problems
    assert len(problems) == 2


@pytest.mark.parametrize(
    "claim, message",
    [
        ({"says": "Every row sums to 2", "checks": ["01_demo:row_sums[0]"]}, "does not stand on the page"),
        ({"says": "Every row sums to 1", "checks": ["01_demo:row_sums[1]"]}, "which the page does not tie"),
        ({"says": "Every row sums to 1", "checks": ["row_sums[0]"]}, "which the page does not tie"),
        (
            {"says": "Every row sums to 1", "outputs": ["01_demo: same as the library: False"]},
            "no checked output block",
        ),
        ({"says": "Every row sums to 1", "outputs": ["02_other: row sums"]}, "no checked output block"),
        ({"says": "Every row sums to 1", "cite": "section 3.2.2"}, "which its paragraph does not name"),
        ({"says": "Every row sums to 1", "code": "attn/core.py:no_such_function"}, "which does not exist"),
        ({"says": "Every row sums to 1", "code": "attn/nowhere.py"}, "which does not exist"),
        ({"says": "Every row sums to 1", "page": "04-why-scale.md"}, "which its paragraph does not link to"),
        ({"says": "See section 04 for more.", "page": "99-nowhere.md"}, "which does not exist"),
        ({"says": "Every row sums to 1"}, "names nothing that backs it"),
        ({"says": "Every row sums to 1", "checks": []}, "names nothing that backs it"),
        ({"says": "", "scope": "x"}, "quotes nothing"),
        ({"says": "Every row sums to 1", "scope": "x", "chekcs": ["01_demo:row_sums[0]"]}, "unknown keys"),
    ],
)
def test_each_kind_of_mismatch_is_reported(claim, message):
    problems = [p for p in problems_with([claim]) if "is in no listed claim" not in p]
    assert any(message in p for p in problems), problems


def test_a_claim_listed_twice_is_reported():
    claim = {"says": "Every row sums to 1", "checks": ["01_demo:row_sums[0]"]}
    assert any("is listed twice" in p for p in problems_with([claim, dict(claim)]))


def test_quotes_read_the_page_as_rendered():
    page = read_page("Row C becomes {{ [0.248, 0.503] = w }} and **bold** `code` [a link](x.md){ #id }.\n", "p.md")
    assert page.paragraphs[0].text == "Row C becomes [0.248, 0.503] and bold code a link."


def test_code_output_and_front_matter_are_not_prose():
    text = "---\ndescription: Only a test.\n---\n\n```python\nx = 1  # never\n```\n\n    indented {{ 1 = a }}\n"
    page = read_page(text, "p.md")
    assert all("never" not in p.text and "Only" not in p.text for p in page.paragraphs)


def test_ties_resolve_to_the_nearest_run_block_or_their_named_snippet():
    text = PAGE + "\nAnd {{ 2 = 03_other:n }} and {{ 27.3 @ a source }} and {{ 3..5 ~ growth[2] }}.\n"
    ties = {(t.snippet, t.expr, t.op) for t in read_page(text, "p.md").ties}
    assert ties == {
        ("01_demo", "row_sums[0]", "="),
        ("03_other", "n", "="),
        (None, "a source", "@"),
        ("01_demo", "growth[2]", "~"),
    }


def test_the_absolute_words_are_the_documented_ones():
    assert {"exactly", "always", "never", "only", "any"} <= set(ABSOLUTES)


def test_a_broken_ledger_file_fails_loudly(tmp_path):
    bad = tmp_path / "x.toml"
    bad.write_text('[[claim]]\nsays = "unterminated\n', encoding="utf-8")
    with pytest.raises(Exception, match="x.toml|Illegal|line"):
        read_ledger(bad)
    extra = tmp_path / "y.toml"
    extra.write_text('title = "no"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="unknown top-level keys"):
        read_ledger(extra)


# -- hostile Markdown: what a regular-expression reader gets wrong -----------------------------------


@pytest.mark.parametrize(
    "markdown, text",
    [
        ("A `<s>` token and <b>bold</b> HTML.", "A <s> token and bold HTML."),  # code is code; HTML is markup
        ("Stars in math $a*b$ and $c*d$ stay.", "Stars in math $a*b$ and $c*d$ stay."),  # not emphasis
        ("An escaped \\*star\\* and a *real* one.", "An escaped *star* and a real one."),
        ("A [link with `code`](x.md) and ![an image](y.png) inline.", "A link with code and an image inline."),
        ("Nested **bold *and italic*** marks.", "Nested bold and italic marks."),
        ("A tie {{ 0.5 = w[0] }} in `code` {{ 1 = n }}.", "A tie 0.5 in code 1."),
        ("Two  spaces\nand a break.", "Two spaces and a break."),
    ],
)
def test_inline_markdown_reads_as_rendered(markdown, text):
    assert normalise(markdown) == text
    assert read_page(markdown + "\n", "p.md").paragraphs[0].text == text


def test_a_fence_inside_an_admonition_is_code_and_its_run_is_seen():
    text = (
        '??? example "The code"\n    ```python run="05_x.py"\n    print("never prose")\n    ```\n\n'
        "    ```output\n    the line\n    ```\n\n    Prose in the admonition is {{ 3 = n }}.\n"
    )
    page = read_page(text, "p.md")
    assert all("never prose" not in p.text for p in page.paragraphs)
    assert page.outputs == {"05_x": ["the line"]}
    assert [(t.snippet, t.expr, t.line) for t in page.ties] == [("05_x", "n", 10)]
    assert "Prose in the admonition is 3." in [p.text for p in page.paragraphs]


def test_a_longer_fence_is_not_closed_by_a_shorter_one():
    text = "````markdown\n```\nnever closed here\n```\n````\n\nAfter the fence.\n"
    assert [p.text for p in read_page(text, "p.md").paragraphs] == ["After the fence."]


def test_a_tilde_fence_an_indented_code_block_and_html_are_not_prose():
    text = "~~~\nnever\n~~~\n\n<div>\nonly html\n</div>\n\nProse.\n\n    always code\n"
    assert [p.text for p in read_page(text, "p.md").paragraphs] == ["Prose."]


def test_display_math_and_front_matter_are_not_prose_and_a_formula_over_lines_keeps_the_line_numbers():
    text = "---\ntitle: never\n---\n\n$$\nx = \\text{always}\n$$\n\nA formula $a +\nb$ then {{ 2 = n }} here.\n"
    page = read_page(text, "p.md")
    assert [p.text for p in page.paragraphs] == ["A formula $a + b$ then 2 here."]
    assert [t.line for t in page.ties] == [10]


def test_tabs_and_admonition_titles_are_paragraphs_and_tab_titles_are_headings():
    text = '=== "Only a tab"\n\n    Tab body.\n\n!!! note "Never a heading"\n    Note body.\n'
    paragraphs = [(p.text, p.heading) for p in read_page(text, "p.md").paragraphs]
    assert paragraphs == [
        ('=== "Only a tab"', True),
        ("Tab body.", False),
        ('!!! note "Never a heading"', False),
        ("Note body.", False),
    ]


def test_an_absolute_in_a_list_item_or_table_row_is_reported_on_its_line():
    text = "Intro.\n\n- first item\n- it is always so\n\n| a | b |\n| --- | --- |\n| 1 | never 2 |\n"
    problems = ledger_problems(text, "docs/p.md", [{"says": "Intro.", "scope": "x"}], ROOT)
    assert [p.split(":")[1] for p in problems] == ["4", "8"], problems


def test_an_image_line_is_not_prose_but_its_paragraph_after_is():
    text = "![always an image](x.png)\n\nNever mind.\n"
    assert [p.text for p in read_page(text, "p.md").paragraphs] == ["Never mind."]
