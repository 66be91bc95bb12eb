"""A private turn whose first sentence alone reads as a condition, Chinese and English, both
backends: "A hospital in Trondheim has offered me a post." reads as a medical condition (the
word hospital), so the whole turn — a job offer nobody at work may hear of — was a safety-
critical profile line for every dinner, party and weekend away. Read whole, the turn is a
private career matter and no safety need: its reading wins over the sentence's, and the offer
stays out of a dinner while a request about the offer still gets it."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    word: str  # a word of the offer
    unrelated: list[str]
    about: str  # a request about the offer


CASES = [
    Case(
        [
            "我在一家诊所做护士。",
            "我对芒果过敏。",
            "苏州一家医院给我发了录用通知。单位里还没人知道，先别声张。",
        ],
        "苏州",
        ["周末想请朋友来家里吃饭，做点什么菜好？", "下个月想和老公出去玩两天，帮我规划一下"],
        "帮我想想怎么跟现在的领导提辞职，苏州那家医院的录用通知我打算接了",
    ),
    Case(
        [
            "I work as a nurse at a clinic.",
            "I'm allergic to mango.",
            "A hospital in Trondheim has offered me a post. Nobody at work knows yet, so keep it quiet.",
        ],
        "Trondheim",
        [
            "Friends are coming over for dinner on Saturday, what should I cook?",
            "plan a weekend away for me and my husband",
        ],
        "help me work out how to tell my manager I'm taking the Trondheim hospital post",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=["zh", "en"])
def test_a_job_offer_at_a_hospital_is_a_private_matter_not_a_condition(
    mem_read: Memory, clock: FixedClock, case: Case
) -> None:
    say(mem_read, clock, case.turns, "s1")
    for request in case.unrelated:
        ctx = mem_read.context(request, user="u", budget_tokens=300)
        assert case.word not in ctx.text, (request, ctx.text)
    dinner = mem_read.context(case.unrelated[0], user="u", budget_tokens=300)
    assert "芒果" in dinner.text or "mango" in dinner.text, dinner.text  # the allergy still is
    ctx = mem_read.context(case.about, user="u", budget_tokens=300)
    assert case.word in ctx.text, ctx.text
