"""scripts/reading.py on small Markdown strings, each answer counted by hand."""

import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "scripts" / "reading.py"
_SPEC = importlib.util.spec_from_file_location("reading", _PATH)
reading = importlib.util.module_from_spec(_SPEC)
sys.modules["reading"] = reading  # dataclasses look their module up
_SPEC.loader.exec_module(reading)

LINES = {"short.py": 3, "long.py": 40}.get


def read(text):
    return reading.read(text, lines_of=LINES)


@pytest.mark.parametrize(
    ("text", "words", "sentences"),
    [
        ("One two three. Four five.", 5, 2),
        ("Is it? Yes! Done.", 4, 3),
        ("A list:\n\n- first item\n- second item\n", 6, 3),
        ("Vaswani et al. (2017) wrote it, e.g. here.", 8, 1),
        ("Width 0.5 and 1.0 stay words.", 6, 1),
        ("The ratio\n\n$$\na / b\n$$\n\nis one.", 4, 1),  # lower case after a formula continues
        ("Before.\n\n$$\nx\n$$\n\nAfter.", 2, 2),  # upper case starts anew
        ("The width $d_k$ grows.", 4, 1),  # a formula is one word
        ("See [section 04](04-why-scale.md) now.", 4, 1),  # a link reads as its text
        ("It is {{ 0.248 = w[2] }} wide.", 4, 1),  # a tie reads as its number
        ("Gap: one; two: three.", 4, 1),  # colons and semicolons end nothing
        ("**1. Make C longer.** Then predict.", 6, 2),  # the number is a word, not a sentence
        ('---\ndescription: "Front matter. Not prose."\n---\n\nBody here.', 2, 1),
        ("# A heading\n\nText.", 1, 1),
        ("| a | b |\n| --- | --- |\n| one | two |\n\nText.", 1, 1),
        ('!!! note "A title here"\n    Body words.', 2, 1),
        ('??? note "Folded title"\n    Folded prose counts.', 3, 1),
        ("<details>\n<summary>Not prose</summary>\n\nInside prose.\n\n</details>", 2, 1),
        ("Text.\n\n```python\nx = 1. Not prose.\n```\n", 1, 1),
        ("![A figure with alt](f.svg)\n\nText.", 1, 1),
        ("Text.\n\n## References\n\n- Vaswani, A. et al. (2017). *Title*.\n\n## Next\n\nMore.", 2, 2),
    ],
)
def test_words_and_sentences(text, words, sentences):
    r = read(text)
    assert (r.words, r.sentences) == (words, sentences)


@pytest.mark.parametrize(
    ("text", "ties", "booleans"),
    [
        ("A {{ 1 = a }} b {{ 27.3 @ Paper, Table 2 }} c {{ 3..5 ~ t }}.", 3, 0),
        ("It holds ({{ True = ok }}) and not ({{ False = bad }}).", 2, 2),
        ("Overflow gives {{ nan = x }} and {{ inf = y }}, also {{ -inf = z }}.", 3, 3),
        ("A list {{ [1.0, nan] = v }}; infinite is a word, {{ 0.5 = information }}.", 2, 1),
        ("| row | {{ True = ok }} |\n| --- | --- |", 1, 1),  # tables count
        ("```python\n{{ True = ok }}\n```", 0, 0),  # code is shown as written
        ('??? success "Answer"\n    Folded {{ False = f }} counts.', 1, 1),
    ],
)
def test_ties(text, ties, booleans):
    r = read(text)
    assert (r.ties, r.boolean_ties) == (ties, booleans)


def test_ties_per_100_words():
    r = read("one two three {{ 4 = a }}.")  # 4 words, 1 tie
    assert r.ties_per_100 == pytest.approx(25.0)


@pytest.mark.parametrize(
    ("text", "longest"),
    [
        ("```python\na\n\nb\n```", 2),  # blank lines do not count
        ('```python run="long.py"\n```\n\n```output\nx\ny\n```', 40),  # a run block counts its snippet
        ('??? example "Code"\n    ```python run="long.py"\n    ```\n\n```python run="short.py"\n```', 3),
        ('???+ example "Open"\n    ```python run="long.py"\n    ```', 40),  # ???+ shows its content
        ('!!! note\n    ```python run="long.py"\n    ```', 40),
        ('=== "Tab"\n    ```python run="long.py"\n    ```', 40),
        ('<details>\n<summary>s</summary>\n\n```python run="long.py"\n```\n\n</details>\n\n```text\na\n```', 1),
        ('<details open>\n<summary>s</summary>\n\n```python run="long.py"\n```\n\n</details>', 40),
        ('??? note "Fold"\n    Prose.\n\n```python run="long.py"\n```', 40),  # the fold ends at the dedent
        ("````markdown\n```python\ninner\n```\n````", 3),  # a longer fence holds a shorter one
    ],
)
def test_longest_unfolded_block(text, longest):
    assert read(text).longest.lines == longest


def test_missing_snippet_counts_zero_and_says_so():
    r = read('```python run="gone.py"\n```')
    assert (r.longest.lines, r.longest.label) == (0, "gone.py (missing)")


def test_figures():
    assert read("![a](x.svg)\n\n??? note\n    ![b](y.svg)\n\n`![c](z.svg)` in code\n").figures == 2


def test_misses_name_every_target():
    text = (
        "{{ True = ok }} "
        + "word " * 30  # 31 words, 1 tie, 1 sentence
        + '\n\n```python run="long.py"\n```\n'
    )
    missed = read(text).misses(section=True)
    assert missed == ["1 boolean ties", "3.2 ties/100 words", "a 40-line block", "mean sentence 31.0", "no figure"]
    assert read("A short one.\n\n![f](f.svg)").misses(section=True) == []
    assert read("A short one.").misses(section=False) == []


def test_table_lists_pages_that_miss(tmp_path):
    good = tmp_path / "01-good.md"
    good.write_text("Short. Sentences.\n\n![f](f.svg)\n", encoding="utf-8")
    bad = tmp_path / "02-bad.md"
    bad.write_text("No figure here.\n", encoding="utf-8")
    out = reading.table([good, bad])
    assert "| 01-good | 2 | 0.0 | 0 | – | 1.0 | 1 |" in out
    assert out.splitlines()[-1] == "pages missing a target: 02-bad (no figure)"
    assert reading.table([good]).splitlines()[-1] == "every page meets the targets"


def test_snippet_lines_counts_non_blank(tmp_path):
    (tmp_path / "s.py").write_text("a = 1\n\nb = 2\n", encoding="utf-8")
    assert reading.snippet_lines("s.py", tmp_path) == 2
    assert reading.snippet_lines("none.py", tmp_path) is None


def test_a_run_block_of_one_cell_counts_that_cell(tmp_path):
    (tmp_path / "c.py").write_text("# %% one\na = 1\n\n# %% two\nb = 2\nc = 3\n", encoding="utf-8")
    assert reading.snippet_lines("c.py", tmp_path, cell="two") == 2
    assert reading.snippet_lines("c.py", tmp_path, cell="three") is None
    page = '```python run="c.py" cell="two"\n```\n'
    (block,) = reading.read(page, lambda name, cell=None: reading.snippet_lines(name, tmp_path, cell)).blocks
    assert (block.lines, block.label) == (2, "c.py (two)")
