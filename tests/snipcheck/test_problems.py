"""A problem's message is shown whole up to a limit, and cut past it with how much was cut."""

from __future__ import annotations

import pytest

from snipcheck.problems import MESSAGE_LIMIT, Problem, ProblemKind, cut


@pytest.mark.parametrize(
    ("text", "limit", "shown"),
    [
        ("abc", 3, "abc"),
        ("abcd", 3, "abc… (cut: 1 more characters)"),
        ("", 0, ""),
        ("x" * 10, 0, "… (cut: 10 more characters)"),
    ],
)
def test_cut_keeps_the_start_and_says_how_much_is_cut(text, limit, shown):
    assert cut(text, limit) == shown


@pytest.mark.hostile
def test_a_huge_message_is_cut_where_the_user_reads_it():
    problem = Problem(ProblemKind.SNIPPET, "docs/p.md", 3, "y" * (MESSAGE_LIMIT + 5000), "snippets/s.py")
    assert str(problem) == f"docs/p.md:3: {'y' * MESSAGE_LIMIT}… (cut: 5000 more characters) (snippets/s.py)"
