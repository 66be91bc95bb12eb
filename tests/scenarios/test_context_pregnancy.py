"""A pregnancy said beside a question, Chinese and English, both backends: "我怀孕已经五个月了，
孕期有啥要注意的吗？" reads as no catalogue attribute, only as a private pregnancy (the sensitivity
head), so only a request about pregnancy opened it and a team dinner or a trip missed it. A
pregnancy still bears on what a meal or a trip must respect (``critical.TOPIC_NEEDS``): it opens
to them as a medical condition would, and stays out of a present for a child and a code task —
the head's request side reads presents as no safety need since it learnt from near misses
(``tests/data/sensitivity_requests.jsonl``)."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.retrieve import critical
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    word: str  # a word of the pregnancy
    bearing: list[str]  # requests a pregnancy bears on
    not_bearing: list[str]  # requests it does not


CASES = [
    Case(
        ["我在一家设计公司做UI设计。", "我周末喜欢去公园跑步。", "我怀孕已经五个月了，孕期有啥要注意的吗？"],
        "怀孕",
        ["周五想和同事出去吃饭，推荐个地方吧", "下个月去厦门玩三天，帮我规划一下"],
        ["女儿下周过生日，送她什么礼物好？", "给这个接口加个分页参数"],
    ),
    Case(
        [
            "I work as a UI designer at an agency.",
            "I like running in the park at weekends.",
            "I'm five months pregnant now, anything I should watch out for?",
        ],
        "pregnant",
        ["Recommend a place for a team dinner this Friday.", "plan a 3-day trip to Lisbon for me next month"],
        ["any gift ideas for my nephew's 10th birthday?", "add a page-size parameter to this endpoint"],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=["zh", "en"])
def test_a_pregnancy_said_beside_a_question_reaches_a_meal_and_a_trip_not_a_present(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    for request in case.bearing:
        ctx = mem_read.context(request, user="u", budget_tokens=300)
        shown = [it for it in ctx.items if case.word in it.text]
        assert shown, (request, ctx.text)
        assert "medical_condition" in str(shown[0].why.get("private")), shown[0].why
    for request in case.not_bearing:
        ctx = mem_read.context(request, user="u", budget_tokens=300)
        assert case.word not in ctx.text, (request, ctx.text)


def test_only_the_users_own_pregnancy_bears_on_a_meal() -> None:
    """Someone else's pregnancy (a sister's) opens only to a request naming that person."""
    assert critical.topic_need("pregnancy") == frozenset({"medical_condition"})
    assert critical.topic_need("pregnancy", theirs=True) == frozenset()
    assert critical.topic_need("money") == frozenset()
