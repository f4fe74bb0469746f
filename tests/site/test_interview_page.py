"""The interview page keeps its shape: enough questions, short answers, each linked and checked.

Each question of docs/13-interview-questions.md is a numbered ``###`` heading with an id of its own,
listed in the page's index of questions; its answer (the prose up to the first folded block or the
next heading) has three to five sentences, links to at least one other page at an anchor, and ties
at least one number to a snippet. The sentence count is a heuristic (abbreviations such as
"et al." are masked first); the tests below pin it on small cases.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "13-interview-questions.md"
MIN_QUESTIONS, MIN_SENTENCES, MAX_SENTENCES = 16, 3, 5

_HEADING = re.compile(r"^### (?P<number>\d+)\. (?P<title>.+?) \{ #(?P<id>[a-z0-9-]+) \}\s*$")
_TIE = re.compile(r"\{\{\s*(?P<doc>.+?)\s+(?P<op>[=@~])\s+(?P<ref>.+?)\s*\}\}")
_LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)]*)\)")
_ABBREVIATIONS = ("et al.", "e.g.", "i.e.", "vs.", "cf.")


def sentences(text: str) -> list[str]:
    """The sentences of a paragraph of Markdown prose (ties, links, math and code masked)."""
    text = _TIE.sub(lambda m: m["doc"], text)
    text = _LINK.sub(lambda m: m["text"], text)
    text = re.sub(r"\$[^$]+\$", "X", text)
    text = re.sub(r"`[^`]*`", "X", text)
    for abbreviation in _ABBREVIATIONS:
        text = text.replace(abbreviation, abbreviation.replace(".", ""))
    text = re.sub(r"\s+", " ", text).strip()
    parts = re.split(r"(?<=[.?!])[\"”)]?\s+(?=[A-Z(\[\"*])", text)
    return [p for p in parts if p.strip()]


def questions(markdown: str) -> list[dict]:
    """Each question: its number, title, id and answer (the prose before any folded block)."""
    found, current = [], None
    for line in markdown.splitlines():
        heading = _HEADING.match(line)
        if heading:
            current = {**heading.groupdict(), "answer": [], "open": True}
            found.append(current)
        elif line.startswith("#"):
            current = None
        elif current is not None and current["open"]:
            if re.match(r"^(\?\?\?\+?|!!!) ", line):
                current["open"] = False
            else:
                current["answer"].append(line)
    for question in found:
        lines = question.pop("answer")
        question.pop("open")
        prose, in_math = [], False
        for line in lines:
            if line.strip() == "$$":
                in_math = not in_math
            elif not in_math and not line.lstrip().startswith("|"):
                prose.append(line.strip().removeprefix("- "))
        question["answer"] = " ".join(p for p in prose if p)
    return found


@pytest.fixture(scope="module")
def page_questions() -> list[dict]:
    return questions(PAGE.read_text(encoding="utf-8"))


def test_enough_questions_numbered_in_order_with_ids_of_their_own(page_questions):
    assert len(page_questions) >= MIN_QUESTIONS, f"{len(page_questions)} questions, fewer than {MIN_QUESTIONS}"
    assert [int(q["number"]) for q in page_questions] == list(range(1, len(page_questions) + 1))
    ids = [q["id"] for q in page_questions]
    assert len(set(ids)) == len(ids), f"ids used twice: {sorted({i for i in ids if ids.count(i) > 1})}"


def test_the_index_of_questions_links_every_question_once(page_questions):
    text = PAGE.read_text(encoding="utf-8")
    index = text[: text.index("## ")]  # everything above the first section
    for q in page_questions:
        assert index.count(f"](#{q['id']})") == 1, f"question {q['number']} (#{q['id']}) is not in the index once"


def test_every_answer_has_three_to_five_sentences(page_questions):
    wrong = {
        f"{q['number']}. {q['title']}": len(sentences(q["answer"]))
        for q in page_questions
        if not MIN_SENTENCES <= len(sentences(q["answer"])) <= MAX_SENTENCES
    }
    assert wrong == {}, f"answers outside {MIN_SENTENCES}-{MAX_SENTENCES} sentences: {wrong}"


def test_every_answer_links_to_a_section_and_ties_a_computed_number(page_questions):
    for q in page_questions:
        targets = [m["target"] for m in _LINK.finditer(q["answer"])]
        assert any(re.match(r"^\d\d-[a-z0-9-]+\.md#[a-z0-9-]+$", t) for t in targets), (
            f"question {q['number']} links to no section at an anchor: {targets}"
        )
        ties = [m["op"] for m in _TIE.finditer(q["answer"])]
        assert "=" in ties, f"question {q['number']} ties no computed number"


@pytest.mark.parametrize(
    "text, count",
    [
        ("One. Two. Three.", 3),
        ("Vaswani et al. (2017, Table 1) say so. It holds.", 2),
        ("A score of {{ 0.25 = x[0] }} and [section 02](02-one-head-by-hand.md#step-1-scores). Next.", 2),
        ("The rate $\\mathrm{lrate} = d^{-0.5}$. Then it decays, e.g. as one over a root.", 2),
        ('It "hurts perplexity". The toy shows it.', 2),
        ("Is it? Yes. (A remark.) Done.", 4),
    ],
)
def test_sentences_are_counted_as_a_reader_counts_them(text, count):
    assert len(sentences(text)) == count, sentences(text)


def test_a_page_with_a_missing_piece_fails():
    page = (
        "## The mechanism\n\n### 1. A question? { #a }\n\nOne sentence only, no link.\n\n"
        '??? example "code"\n    Hidden. Not. Counted. At. All. Here.\n'
    )
    (q,) = questions(page)
    assert q["answer"] == "One sentence only, no link."
    assert len(sentences(q["answer"])) == 1
    assert not _LINK.search(q["answer"]) and not _TIE.search(q["answer"])
