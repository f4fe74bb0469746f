"""The interview page keeps its shape: enough questions, each answer folded, short, linked and checked.

Each question of docs/16-interview-questions.md is a numbered ``###`` heading with an id of its own,
listed in the page's index of questions. Its answer sits in a closed fold (``??? success "Answer"``)
right under the heading, so a reader can try first: three to six sentences that tie at least one
number to a snippet, and the anchor ``{ #ID-answer }`` that a link uses to open the fold. Folds
nested in the answer (the code) are not part of it. After the fold, in view, comes a one-paragraph
"A strong answer mentions:" checklist that links to the section teaching it (a page at an anchor).
The "Spot the bug" cases are ``### Bug N · ...`` headings, each with a run block, its output, a tied
consequence and a folded fix. The sentence count is a heuristic (abbreviations such as "et al." are
masked first); the tests below pin it on small cases.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from snipcheck.read.ties import replace_ties, tie_texts

PAGE = Path(__file__).resolve().parents[2] / "docs" / "16-interview-questions.md"
MIN_QUESTIONS, MIN_SENTENCES, MAX_SENTENCES = 35, 3, 6
MIN_BUGS = 8
CHECKLIST = "**A strong answer mentions:**"

_HEADING = re.compile(r"^### (?P<number>\d+)\. (?P<title>.+?) \{ #(?P<id>[a-z0-9-]+) \}\s*$")
_BUG = re.compile(r"^### Bug (?P<number>\d+) · (?P<title>.+?) \{ #(?P<id>[a-z0-9-]+) \}\s*$")
_FOLD = re.compile(r'^(?P<mark>\?\?\?\+?|!!!) (?P<kind>[a-z]+)(?: "(?P<title>[^"]*)")?\s*$')
_LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)]*)\)")
_SECTION_LINK = re.compile(r"^\d\d-[a-z0-9-]+\.md#[a-z0-9-]+$")
_ABBREVIATIONS = ("et al.", "e.g.", "i.e.", "vs.", "cf.")


def sentences(text: str) -> list[str]:
    """The sentences of a paragraph of Markdown prose (ties, links, math and code masked)."""
    text = replace_ties(text, lambda t: t.documented)
    text = _LINK.sub(lambda m: m["text"], text)
    text = re.sub(r"\$[^$]+\$", "X", text)
    text = re.sub(r"`[^`]*`", "X", text)
    for abbreviation in _ABBREVIATIONS:
        text = text.replace(abbreviation, abbreviation.replace(".", ""))
    text = re.sub(r"\s+", " ", text).strip()
    parts = re.split(r"(?<=[.?!])[\"”)]?\s+(?=[A-Z(\[\"*])", text)
    return [p for p in parts if p.strip()]


def _sections(markdown: str, heading: re.Pattern) -> list[dict]:
    """Each heading matching ``heading``, with the lines up to the next heading of any level."""
    found, current = [], None
    for line in markdown.splitlines():
        match = heading.match(line)
        if match:
            current = {**match.groupdict(), "lines": []}
            found.append(current)
        elif line.startswith("#"):
            current = None
        elif current is not None:
            current["lines"].append(line)
    return found


def _prose(lines: list[str]) -> str:
    """Lines of Markdown as one string of prose: display math and table rows left out."""
    prose, in_math = [], False
    for line in lines:
        if line.strip() == "$$":
            in_math = not in_math
        elif not in_math and not line.lstrip().startswith("|"):
            prose.append(line.strip().removeprefix("- "))
    return " ".join(p for p in prose if p)


def questions(markdown: str) -> list[dict]:
    """Each question: number, title, id; the fold that opens it (None if the answer is not folded);
    its answer (the fold's prose), the fold's own anchors (``{ #... }``), the checklist in view after
    the fold, and any checklist left inside the fold."""
    found = _sections(markdown, _HEADING)
    for question in found:
        lines = question.pop("lines")
        body_start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
        first = lines[body_start] if body_start < len(lines) else ""
        fold = _FOLD.match(first)
        question["fold"] = fold["mark"] if fold and fold["title"] == "Answer" else None
        answer, folded_checklist, checklist, anchors, part = [], [], [], [], "answer"
        rest = lines[body_start + 1 if question["fold"] else body_start :]
        end = len(rest)
        if question["fold"]:
            end = next((i for i, line in enumerate(rest) if line.strip() and not line.startswith("    ")), len(rest))
            for line in rest[:end]:
                inner = line[4:]
                if inner.startswith(" ") or _FOLD.match(inner):
                    continue  # a fold inside the answer: the code
                if re.fullmatch(r"\{ #[a-z0-9-]+ \}", inner.strip()):
                    anchors.append(inner.strip()[3:-2])
                    continue
                if inner.startswith(CHECKLIST):
                    part = "folded checklist"
                (answer if part == "answer" else folded_checklist).append(inner)
        in_checklist = False
        for line in rest[end:]:
            if line.startswith(CHECKLIST):
                in_checklist = True
            elif not line.strip():
                in_checklist = False
            if in_checklist:
                checklist.append(line)
        question["answer"] = _prose(answer)
        question["checklist"] = _prose(checklist)
        question["folded_checklist"] = _prose(folded_checklist)
        question["anchors"] = anchors
    return found


def bugs(markdown: str) -> list[dict]:
    """Each "Spot the bug" case: number, id, its run block, whether a fold titled "The fix" follows,
    and the prose between the output block and the fix."""
    found = _sections(markdown, _BUG)
    for bug in found:
        lines = bug.pop("lines")
        bug["runs"] = [m["name"] for line in lines if (m := re.match(r'^```python run="(?P<name>[^"]+)"', line))]
        bug["has_output"] = any(line.strip() == "```output" for line in lines)
        bug["fix_folded"] = any(re.match(r'^\?\?\? tip "The fix"\s*$', line) for line in lines)
        prose, in_code = [], False
        for line in lines:
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and not line.startswith(("    ", "???")):
                prose.append(line)
        bug["prose"] = _prose(prose)
    return found


@pytest.fixture(scope="module")
def page_text() -> str:
    return PAGE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def page_questions(page_text) -> list[dict]:
    return questions(page_text)


def test_enough_questions_numbered_in_order_with_ids_of_their_own(page_questions):
    assert len(page_questions) >= MIN_QUESTIONS, f"{len(page_questions)} questions, fewer than {MIN_QUESTIONS}"
    assert [int(q["number"]) for q in page_questions] == list(range(1, len(page_questions) + 1))
    ids = [q["id"] for q in page_questions]
    assert len(set(ids)) == len(ids), f"ids used twice: {sorted({i for i in ids if ids.count(i) > 1})}"


def test_the_index_of_questions_links_every_question_once(page_text, page_questions):
    index = page_text[: page_text.index("\n## ")]  # everything above the first section
    for q in page_questions:
        assert index.count(f"](#{q['id']})") == 1, f"question {q['number']} (#{q['id']}) is not in the index once"


def test_every_answer_is_folded_closed_and_opened_by_its_own_anchor(page_text, page_questions):
    not_folded = [q["number"] for q in page_questions if q["fold"] != "???"]
    assert not_folded == [], f"answers not in a closed ??? fold right under the question: {not_folded}"
    wrong = {q["number"]: q["anchors"] for q in page_questions if q["anchors"] != [f"{q['id']}-answer"]}
    assert wrong == {}, f"answers without their one anchor {{ #ID-answer }}: {wrong}"
    assert len(re.findall(r"\{ #[a-z0-9-]+-answer \}", page_text)) == len(page_questions)


def test_every_answer_has_three_to_six_sentences(page_questions):
    wrong = {
        f"{q['number']}. {q['title']}": len(sentences(q["answer"]))
        for q in page_questions
        if not MIN_SENTENCES <= len(sentences(q["answer"])) <= MAX_SENTENCES
    }
    assert wrong == {}, f"answers outside {MIN_SENTENCES}-{MAX_SENTENCES} sentences: {wrong}"


def test_every_answer_ties_a_computed_number_and_its_checklist_links_to_a_section(page_questions):
    for q in page_questions:
        ties = [t.op for t in tie_texts(q["answer"])]
        assert "=" in ties, f"question {q['number']} ties no computed number"
        assert not q["folded_checklist"], f"question {q['number']}: the checklist is inside the fold, out of view"
        assert q["checklist"].startswith(CHECKLIST), f"question {q['number']} has no checklist after its fold"
        assert len(sentences(q["checklist"])) <= 2, f"question {q['number']}: the checklist is not one line"
        targets = [m["target"] for m in _LINK.finditer(q["checklist"])]
        assert any(_SECTION_LINK.match(t) for t in targets), (
            f"question {q['number']}: the checklist links to no section at an anchor: {targets}"
        )


def test_spot_the_bug_has_enough_cases_each_run_with_a_consequence_and_a_folded_fix(page_text):
    cases = bugs(page_text)
    assert len(cases) >= MIN_BUGS, f"{len(cases)} spot-the-bug cases, fewer than {MIN_BUGS}"
    assert [int(b["number"]) for b in cases] == list(range(1, len(cases) + 1))
    for b in cases:
        assert len(b["runs"]) == 1 and b["has_output"], f"bug {b['number']}: not one run block with its output"
        assert "=" in [t.op for t in tie_texts(b["prose"])], f"bug {b['number']}: no checked consequence"
        assert b["fix_folded"], f"bug {b['number']}: the fix is not folded"
    assert len({b["runs"][0] for b in cases}) == len(cases), "two cases run the same snippet"


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


_GOOD = (
    '### 1. A question? { #a }\n\n??? success "Answer"\n    One {{ 1 = x }}. Two.\n    { #a-answer }\n\n'
    "    Three.\n\n"
    '    ??? example "code"\n        Hidden. Not. Counted. At. All. Here.\n\n'
    "**A strong answer mentions:** this · that.\n"
    "Taught in [section 02](02-one-head-by-hand.md#step-1-scores).\n"
)


def test_a_well_formed_question_is_read_in_its_parts():
    (q,) = questions(_GOOD)
    assert q["fold"] == "???" and q["anchors"] == ["a-answer"]
    assert q["answer"] == "One {{ 1 = x }}. Two. Three."
    assert q["checklist"].startswith(CHECKLIST) and "section 02" in q["checklist"]
    assert q["folded_checklist"] == ""


_FOLDED_CHECKLIST = (
    '### 1. A question? { #a }\n\n??? success "Answer"\n    One {{ 1 = x }}. Two. Three.\n\n'
    "    **A strong answer mentions:** this · that.\n"
    "    Taught in [section 02](02-one-head-by-hand.md#step-1-scores).\n"
    "    { #a-answer }\n"
)


@pytest.mark.parametrize(
    "page, broken",
    [
        ("### 1. A question? { #a }\n\nOne sentence only, no link.\n", "fold"),
        (_GOOD.replace('??? success "Answer"', '???+ success "Answer"'), "fold"),
        (_GOOD.replace("    { #a-answer }\n", ""), "anchors"),
        (_GOOD.replace("**A strong answer mentions:**", "Mentions:"), "checklist"),
        (_FOLDED_CHECKLIST, "checklist"),
    ],
)
def test_a_question_with_a_missing_piece_is_caught(page, broken):
    (q,) = questions(page)
    if broken == "fold":
        assert q["fold"] != "???"
    elif broken == "anchors":
        assert q["anchors"] == []
    else:
        assert not q["checklist"].startswith(CHECKLIST)
    if page is _FOLDED_CHECKLIST:
        assert q["folded_checklist"].startswith(CHECKLIST) and q["anchors"] == ["a-answer"]
        assert q["answer"] == "One {{ 1 = x }}. Two. Three."


def test_a_bug_without_a_folded_fix_or_a_tie_is_caught():
    page = '### Bug 1 · Masks { #bug-a }\n\n```python run="x.py"\n```\n\n```output\n1\n```\n\nIt leaks.\n'
    (b,) = bugs(page)
    assert b["runs"] == ["x.py"] and b["has_output"]
    assert not b["fix_folded"] and not tie_texts(b["prose"])
