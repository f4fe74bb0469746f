"""Reading a widget: the div that names its script and its data file, its text alternative, and
what is not a widget (another div) or is a broken one (a name or a file missing)."""

from __future__ import annotations

import pytest
from snipkit import page_problems

from snipcheck.read.page import parse
from snipcheck.read.widgets import read_widget

WIDGET = '<div class="widget wide" data-widget="temperature" data-src="figures/w/t.json">\nThe <em>weights</em> of one query &amp; its keys.\n</div>'


def test_a_widget_div_names_its_script_data_file_and_text():
    widget, problem = read_widget(WIDGET, 3, 5)
    assert problem is None
    assert (widget.line, widget.end_line, widget.name, widget.src) == (3, 5, "temperature", "figures/w/t.json")
    assert widget.alt == "The weights of one query & its keys."
    assert widget.block == WIDGET


@pytest.mark.parametrize(
    "block", ['<div class="admonition">x</div>', '<div class="widgets">x</div>', "<p>x</p>", '<div>data-src="figures/w/t.json"</div>']
)
def test_other_html_is_no_widget(block):
    assert read_widget(block, 1, 1) == (None, None)


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("block", "missing"),
    [
        ('<div class="widget" data-src="figures/w/t.json">x</div>', "data-widget"),
        ('<div class="widget" data-widget="t">x</div>', "data-src"),
        ('<div class="widget" data-widget=" " data-src="">x</div>', "data-widget and data-src"),
    ],
)
def test_a_widget_without_its_script_or_file_is_refused(block, missing):
    assert page_problems(f"# P\n\n{block}\n") == [f"docs/p.md:3: a widget needs {missing}: the script that draws it and the data file it shows"]


def test_a_page_reads_its_widgets_in_order_with_their_lines():
    text = f"# P\n\n{WIDGET}\n\nProse.\n\n" + WIDGET.replace("t.json", "u.json") + "\n"
    doc = parse(text, "docs/p.md", "p.md")
    assert [(w.line, w.end_line, w.src) for w in doc.widgets] == [(3, 5, "figures/w/t.json"), (9, 11, "figures/w/u.json")]
    assert doc.problems == []
