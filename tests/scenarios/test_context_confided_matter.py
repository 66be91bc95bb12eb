"""Someone else's condition said in a turn keeps the records made of that turn private; a
request to the user's lawyer opens their divorce. Chinese and English, both backends.

- "Mum's on dialysis now, kidney failure. Three sessions a week and I drive her to most of
  them." A record made of the turn ("drives her to three sessions a week") is private with the
  turn. The turn's condition reads as a medical condition, and the turn was judged by the rule
  for the user's own condition: a head reading it 0.05 likely a safety need made it
  safety-critical, so it was never private and the drives reached a birthday dinner (held-out 7,
  six leaks with the retrained head). The turn is about the mother (``confided.about``), and her
  condition is hers, as for the turn's sentences and records (decision 0016l).
- The request head reads "email my lawyer about the mediation" as legal only and the head
  reads the divorce as a relationship: a legal request now opens relationship matters too.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memquill import FixedClock, Memory
from memquill.retrieve import confided
from memquill.retrieve.sensitivity import Sensitivity
from tests.support.sessions import say


class Case(NamedTuple):
    turns: list[str]
    words: list[str]  # words of the private matter (any one shows it)
    opens: list[str]  # requests it must reach
    not_opens: list[str]  # requests it must not reach


THEIRS = [
    Case(
        ["我在一家书店上班。", "我妈现在在做透析，肾衰竭。一周三次，大多是我开车送她去。", "我喜欢吃辣。"],
        ["透析", "一周三次"],
        [],
        ["下周五我过生日，帮我找家餐厅", "帮我做一周的午饭便当食谱"],
    ),
    Case(
        [
            "I work at a bookshop.",
            "Mum's on dialysis now, kidney failure. Three sessions a week and I drive her to most of them.",
            "I love spicy food.",
        ],
        ["dialysis", "three sessions", "Three sessions"],
        [],
        ["find a restaurant for my birthday dinner next friday", "plan a week of packed lunches for me"],
    ),
]


def _shows(ctx_text: str, words: list[str]) -> bool:
    return any(w in ctx_text for w in words)


def _reaches_only_its_requests(mem: Memory, clock: FixedClock, case: Case) -> None:
    """The case's turns said, its matter is in every block it opens and in none it must not."""
    say(mem, clock, case.turns, "s1")
    for request in case.opens:
        ctx = mem.context(request, user="u", budget_tokens=300)
        assert _shows(ctx.text, case.words), (request, ctx.text)
    for request in case.not_opens:
        ctx = mem.context(request, user="u", budget_tokens=300)
        assert not _shows(ctx.text, case.words), (request, ctx.text)


@pytest.mark.parametrize("case", THEIRS, ids=["zh", "en"])
def test_a_relatives_condition_keeps_its_turns_records_private(
    mem_e5: Memory, clock: FixedClock, case: Case
) -> None:
    _reaches_only_its_requests(mem_e5, clock, case)


def test_a_turn_about_a_relative_is_theirs_even_when_the_head_sees_some_safety() -> None:
    """The turn rule takes the relative exception: a reading at 0.05 safety (not a near-sure
    private matter of the user's own) no longer makes the mother's dialysis safety-critical."""
    st = {
        "text": "Mum's on dialysis now, kidney failure. Three sessions a week and I drive her to most of them.",
        "reading": [0.9, [["medical_condition", 0.78]]],
    }
    reading = Sensitivity("health", 0.93, 0.053, "x")
    labels = confided._sensitive_turn(st, lambda _t: reading)
    assert any(x.startswith("sensitive:health@") for x in labels), labels
    mine = {**st, "text": "I'm on dialysis now, kidney failure. Three sessions a week."}
    assert confided._sensitive_turn(mine, lambda _t: reading) == frozenset()  # the user's own: a need


LAWYER = [
    Case(
        ["我在中学教语文。", "我不吃香菜。", "正在办离婚，最近心情很差，很多事都顾不上。"],
        ["离婚"],
        ["帮我写封邮件给我的律师，问一下调解安排在什么时候"],
        ["周末想请几个同事来家里吃饭，帮我想个菜单", "帮我写一段自我介绍，下周组里开会用"],
    ),
    Case(
        [
            "I teach English at a secondary school.",
            "I can't stand coriander.",
            "Going through a divorce right now and my head is all over the place.",
        ],
        ["divorce"],
        ["write an email to my lawyer asking when the mediation is scheduled"],
        ["plan a dinner menu for colleagues coming over on saturday", "write a short bio for the staff page"],
    ),
]


@pytest.mark.parametrize("case", LAWYER, ids=["zh", "en"])
def test_a_request_to_the_lawyer_opens_the_divorce(mem_e5: Memory, clock: FixedClock, case: Case) -> None:
    """A request about a legal matter opens a relationship matter (``sensitivity.TOPIC_OPENS``):
    the head reads "email my lawyer about the mediation" as legal only, and the divorce as a
    relationship."""
    _reaches_only_its_requests(mem_e5, clock, case)


PROCEDURE = [
    Case(
        [
            "我在一家设计公司上班。",
            "我在吃华法林抗凝，给我推荐保健品或者止痛药之前先问我一下。",
            "我喜欢喝乌龙茶。",
        ],
        ["华法林"],
        ["下周要去拔颗牙，有啥要注意的？"],
        ["帮我给女儿挑个生日礼物"],
    ),
    Case(
        [
            "I work at a design studio.",
            "I'm on warfarin, so check with me before suggesting any supplements or painkillers.",
            "I drink a lot of oolong tea.",
        ],
        ["warfarin"],
        ["I'm getting a tooth pulled on Monday, anything I should know?"],
        ["birthday present ideas for my daughter?"],
    ),
]


@pytest.mark.parametrize("case", PROCEDURE, ids=["zh", "en"])
def test_a_blood_thinner_reaches_a_tooth_extraction(mem_e5: Memory, clock: FixedClock, case: Case) -> None:
    """A dental or medical procedure bears on the user's safety (request rows
    ``sensitivity_requests_procedures.jsonl``): "我下周要去拔牙" read 0.69, under the 0.7 bar, and
    held-out 7 missed warfarin for it."""
    _reaches_only_its_requests(mem_e5, clock, case)
