"""A place whose name ends with a school's head word is where someone studies, not where they
live: the child moved to a new kindergarten or school is that child's, the question naming
the child reaches it, and a school said as a landmark stays where the user lives. A rule's
match said of someone by name is theirs, not the user's (zh + en, every backend, the real
embedder and the attribute model)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart


@pytest.mark.parametrize(
    ("turns", "subject", "question", "now"),
    [
        (
            [
                "乐乐在小树苗幼儿园老是被同一个小朋友推，我该怎么跟老师沟通比较好？",
                "乐乐9月要转园了，新的叫蒲公英幼儿园，离我家近。",
            ],
            "person:乐乐",
            "乐乐现在在哪个幼儿园？",
            "蒲公英幼儿园",
        ),
        (
            [
                "Maya's class at Lincoln Elementary is doing a dress-up day, easy costume ideas?",
                "we're moving Maya to Maple Grove Montessori this fall, class sizes at her old school got huge.",
            ],
            "person:Maya",
            "which school does Maya go to now?",
            "Maple Grove Montessori",
        ),
    ],
)
def test_a_childs_new_school_is_the_childs_and_answers_the_question(
    mem_e5: Memory, clock: FixedClock, turns: list[str], subject: str, question: str, now: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=30)
    assert active_values(mem_e5, "school").get(subject) == {now}
    assert "user" not in active_values(mem_e5, "address")  # the school is not the user's home
    top = mem_e5.search(question, user="u", k=5)[0].memory
    assert (top.subject, top.value) == (subject, now)


@pytest.mark.parametrize(
    "turn",
    ["我家就在实验小学旁边，早上送孩子特别方便。", "I live near Lincoln Elementary, so mornings are easy."],
)
def test_a_school_said_as_a_landmark_is_no_ones_school(mem_e5: Memory, clock: FixedClock, turn: str) -> None:
    say_apart(mem_e5, clock, [turn], gap_days=1)
    assert not active_values(mem_e5, "school")


@pytest.mark.parametrize(
    ("turn", "subject", "value"),
    [
        (
            "Dana just accepted an offer at Lurie Children's, starts June 16!",
            "person:Dana",
            "Lurie Children's",
        ),
        ("小林去腾讯报到了，说食堂很好吃。", "person:小林", "腾讯"),
    ],
)
def test_a_rule_match_said_of_someone_by_name_is_theirs(
    mem_e5: Memory, clock: FixedClock, turn: str, subject: str, value: str
) -> None:
    say_apart(mem_e5, clock, [turn], gap_days=1)
    employers = active_values(mem_e5, "employer")
    assert employers.get(subject) == {value}
    assert "user" not in employers
