"""A relation one has several people of (mentors, roommates): a question asking who it is
now reaches every person of it and answers with the one named last (zh + en, every backend,
the real embedder)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("first", "later", "question", "was", "now"),
    [
        (
            "毕设导师张老师说实验部分太薄，让我补消融实验。",
            "研究生导师周教授发邮件，让我暑假先读十篇论文。",
            "我现在的导师是谁？",
            "张老师",
            "周教授",
        ),
        (
            "My roommate Jake is moving out next month, he got a job in Denver.",
            "Our new roommate Priya moved in on Sunday, she works nights at the hospital.",
            "who is my roommate now?",
            "Jake",
            "Priya",
        ),
    ],
)
def test_who_it_is_now_is_the_person_named_last(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, question: str, was: str, now: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=30)
    say(mem_e5, clock, [later], "s2", gap_days=30)
    people = {r.subject: r.value for r in mem_e5.records(user="u") if r.key == "name"}
    assert {was, now} <= set(people.values())  # two people of the relation, not one renamed
    hits = mem_e5.search(question, user="u", k=5)
    assert hits[0].memory.value == now
