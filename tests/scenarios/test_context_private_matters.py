"""Private matters the sensitivity head reads (decision 0016g), Chinese and English, both
backends: a therapist the catalogue files as a medical condition stays out of an outing that
the user's allergy is shown for; a private turn is cut from its episode whole, not only its
most private sentence; a private schedule still serves the request that has to plan around it."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import say


class Matter(NamedTuple):
    turns: list[str]
    private: str  # a word of the private matter
    critical: str  # a word of the safety-critical fact
    outing: str  # a request the allergy bears on and the private matter does not


MATTERS = [
    Matter(
        [
            "我在银行做数据工程师。",
            "我今年三月开始因为惊恐发作在看心理医生。",
            "我对花生过敏。",
        ],
        "惊恐",
        "花生",
        "周末去爬山，帮我准备个野餐午饭",
    ),
    Matter(
        [
            "I'm a data engineer at a bank.",
            "I've been seeing a therapist for panic attacks since March.",
            "I'm allergic to peanuts.",
        ],
        "panic",
        "peanut",
        "plan a weekend hiking trip with a picnic lunch",
    ),
]


@pytest.mark.parametrize("case", MATTERS, ids=["zh", "en"])
def test_a_private_matter_filed_as_a_condition_stays_out_of_an_outing(
    mem_read: Memory, clock: FixedClock, case: Matter
) -> None:
    say(mem_read, clock, case.turns, "s1")
    ctx = mem_read.context(case.outing, user="u", budget_tokens=800)
    assert case.critical in ctx.text, ctx.text  # the allergy is what the outing needs
    assert case.private not in ctx.text, ctx.text


class Turn(NamedTuple):
    turns: list[str]
    rest: str  # a word of the private turn's other sentence
    unrelated: str
    naming: str  # a request naming the person the turn is about


TURNS = [
    Turn(
        [
            "我在一家游戏公司做音效设计。",
            "我爸今年春天走了。我妈现在一个人住在绍兴，我每天晚上都给她打电话。",
            "我周末喜欢去攀岩。",
        ],
        "绍兴",
        "给插件加一个混响参数",
        "帮我给我妈写几句话，爸走了一周年了",
    ),
    Turn(
        [
            "I'm a sound designer at a games studio.",
            "My father passed away in the spring. My mother lives alone in Porto now and I ring her every evening.",
            "I like climbing at the weekend.",
        ],
        "Porto",
        "add a reverb parameter to the plugin",
        "help me write a note to my mother for the first anniversary of dad's passing",
    ),
]


@pytest.mark.parametrize("case", TURNS, ids=["zh", "en"])
def test_a_private_turn_is_cut_from_its_episode_whole(
    mem_read: Memory, clock: FixedClock, case: Turn
) -> None:
    """The sentence after a bereavement ("my mother lives alone in Porto now") reads, alone, as
    where the mother lives: it goes with the turn, and comes back with it for a request naming
    the mother."""
    say(mem_read, clock, case.turns, "s1")
    ctx = mem_read.context(case.unrelated, user="u", budget_tokens=800)
    assert case.rest not in ctx.text, ctx.text
    opened = mem_read.context(case.naming, user="u", budget_tokens=800)
    assert case.rest in opened.text, opened.text


class Slot(NamedTuple):
    turns: list[str]
    word: str
    planning: str  # a request that has to plan around the private appointment
    unrelated: str


SLOTS = [
    Slot(
        ["我在银行做数据工程师。", "每周三下午三点我要去做心理咨询，那个时间别排事。"],
        "心理咨询",
        "领导想周三下午跟我一对一，约几点合适？",
        "帮我看看这个 SQL 迁移脚本",
    ),
    Slot(
        [
            "I'm a data engineer at a bank.",
            "I see a therapist for my anxiety every Wednesday at 3, so keep that hour free.",
        ],
        "therapist",
        "my manager wants a 1:1 on Wednesday, which slot should I offer?",
        "review this SQL migration",
    ),
]


@pytest.mark.parametrize("case", SLOTS, ids=["zh", "en"])
def test_a_private_schedule_serves_the_request_that_plans_around_it(
    mem_read: Memory, clock: FixedClock, case: Slot
) -> None:
    say(mem_read, clock, case.turns, "s1")
    ctx = mem_read.context(case.unrelated, user="u", budget_tokens=800)
    assert case.word not in ctx.text, ctx.text
    opened = mem_read.context(case.planning, user="u", budget_tokens=800)
    assert case.word in opened.text, opened.text
    assert any(case.word in i.text and i.why.get("private") for i in opened.items), opened.items
